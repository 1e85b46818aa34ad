"""Server-Sent Events: a stream per table and per tournament that tells a page, as it happens, that what it
shows changed (a move, a signature, a result, a seating, a check-in), so that it reads itself anew; each event
carries the stream's position (its ``id``: a dropped phone resumes from it, ``Last-Event-ID``) and the
game's version and sequence number. ``views`` answers the stream, ``hub`` fans one process's reads out to its
streams, ``topics`` reads what a topic shows. Served by an ASGI server (``tournament/asgi.py``, uvicorn);
under WSGI a stream answers once and the browser asks again after a while (a poll)."""

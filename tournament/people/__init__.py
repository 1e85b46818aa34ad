"""Who does what: who directs a tournament, referees' accounts and one-time login links, a referee's tables
now, and who may do what to which object (``access``)."""

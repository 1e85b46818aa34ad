"""Threads racing for real: calls released together (at_once; each thread closes its database connection),
and a module's private file writes held until every thread has come to its own (writes_held_together)."""

import threading

from django.db import connection


def at_once(*calls):
    """Run the calls in threads released together; returns their results (or raises the first error)."""
    barrier = threading.Barrier(len(calls))
    out, errors = [None] * len(calls), []

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            out[i] = call()
        except Exception as e:  # reported to the test below
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    if errors:
        raise errors[0]
    return out


def writes_held_together(monkeypatch, module, n: int) -> None:
    """``module``'s private writes (``write_private``) held until ``n`` threads have each come to theirs, so
    that each has made its file's contents before any writes them: they race for real."""
    together = threading.Barrier(n)
    write = module.write_private

    def in_step(path, data, *, replace):
        together.wait(timeout=30)
        return write(path, data, replace=replace)

    monkeypatch.setattr(module, "write_private", in_step)

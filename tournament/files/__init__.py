"""Files in and out: a tournament's backup (export, reading and checking, restoring), the participants' list
imported from a spreadsheet, the bounds every upload is held to."""

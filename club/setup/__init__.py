"""The setup page of an empty club (issue 78): its view and form. It reads and starts the
club through ``club.services.setup``, which owns the transactions."""

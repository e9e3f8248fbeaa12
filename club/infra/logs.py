"""Log filters for what `make run` prints (issue 56, noise).

A refusal is the club working, not failing: a member opening another member's page is
answered 403 and the refusal logged as one line. Django logs it with the exception's
traceback, which on the terminal of `make run` looks like a crash.
"""

from __future__ import annotations

import logging


class RefusalsInOneLine(logging.Filter):
    """A 4xx answer's record loses its traceback and keeps the reason in its message."""

    def filter(self, record: logging.LogRecord) -> bool:
        code = getattr(record, "status_code", None)
        if code is not None and 400 <= code < 500 and record.exc_info:
            reason = record.exc_info[1]
            message = record.getMessage()
            said = str(reason) if reason else ""
            record.msg = f"{message} ({said})" if said and said not in message else message
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True

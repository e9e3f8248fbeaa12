"""The Redis broker transport, with one fix, named by ``CELERY_BROKER_TRANSPORT``.

When the Redis connection drops, Celery 5.7's worker collects the broken connection,
which clears kombu's transport, and then closes it once more. The second close tries
to put the worker's unacknowledged messages back on a queue through the cleared
transport, and ``AttributeError: 'NoneType' object has no attribute 'hostname'``
(kombu ``Channel._connparams``) escapes Celery's "ignore connection errors" and ends
the worker. Here that case is the connection error it really is: Celery ignores it and
reconnects. The messages stay in Redis's unacked set (they come back after the
visibility timeout), and the sweeps redo whatever the outage lost (docs/reliability.md).
No released kombu fixes this yet (5.7.0 is the newest); Celery 5.6.3 does not crash but
does not redeliver unacked messages in time either (tests/reliability/test_background.py).
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> Any:
        if self.connection.client is None:
            raise RedisConnectionError("the broker connection was closed (Redis went away)")
        return super()._connparams(asynchronous=asynchronous)  # type: ignore[no-untyped-call]


class Transport(kombu_redis.Transport):
    Channel = Channel

"""The cache keeps its Redis client (club/infra/cache.py, issue 59)."""

from __future__ import annotations

import threading

from django.core.cache import cache, caches


def test_every_cache_call_of_a_thread_uses_one_redis_client() -> None:
    first = cache._cache.get_client()  # type: ignore[attr-defined]
    cache.set("kept-client", "a", 30)
    assert cache.get("kept-client") == "a"
    # Django's own client built a redis.Redis for every call
    assert cache._cache.get_client() is first  # type: ignore[attr-defined]
    assert cache._cache.get_client(write=True) is first  # type: ignore[attr-defined]


def test_threads_sharing_one_kept_client_each_read_their_own_keys() -> None:
    # Django gives each thread its own cache object; one shared here, its client with it
    shared = caches["default"]
    errors: list[str] = []
    barrier = threading.Barrier(8)

    def work(i: int) -> None:
        barrier.wait()
        for j in range(50):
            shared.set(f"kept-{i}-{j}", i * 1000 + j, 30)
            got = shared.get(f"kept-{i}-{j}")
            if got != i * 1000 + j:
                errors.append(f"thread {i} read {got!r} for {j}")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []

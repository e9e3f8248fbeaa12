"""Every named path of the club and of play resolves to its own view, whatever the order
of the includes (club/urls.py puts play first, for speed: no path may shadow another)."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

SAMPLE = {"int": 7, "slug": "foster", "string": "x", "path": "a/b", "uuid": "0" * 32}


def _named(patterns: list[Any], namespace: str = "") -> list[tuple[str, URLPattern]]:
    out = []
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue  # Django's own
            ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
            out += _named(p.url_patterns, ns)
        elif isinstance(p, URLPattern) and p.name:
            out.append((f"{namespace}{p.name}", p))
    return out


def test_every_named_path_resolves_to_its_own_view() -> None:
    named = _named(get_resolver().url_patterns)
    assert len(named) > 50 and any(n == "games:state" for n, _ in named)
    wrong = []
    for name, pattern in named:
        kinds = {k: type(c).__name__.removesuffix("Converter").lower()
                 for k, c in pattern.pattern.converters.items()}  # fmt: skip
        url = reverse(name, kwargs={k: SAMPLE[v] for k, v in kinds.items()})
        match = resolve(url)
        if match.view_name != name or match.func is not pattern.callback:
            wrong.append(f"{url}: {name} expected, {match.view_name} found")
    assert wrong == []

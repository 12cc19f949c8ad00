"""Plain data in and out: dataclasses <-> JSON-ready dicts and lists.

Game state is plain typed data so a position can be saved, compared, replayed
and loaded from a file. Unions of dataclasses are told apart by their ``kind``
field, and so are the members of an :class:`OpenFamily`: dataclasses sharing a
base whose members plug-ins add (a monster's mat), which a union cannot list.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
import dataclasses
import functools
import types
from typing import Any, Literal, TypeVar, Union, cast, get_args, get_origin, get_type_hints

T = TypeVar("T")


class PlainDataError(ValueError):
    """Data that does not fit the expected shape; says where and why."""


def to_plain(value: object) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return value


def from_plain(cls: type[T], data: object, where: str = "$") -> T:
    """Build ``cls`` from plain data, checking every field's type."""
    return _build(cls, data, where)  # type: ignore[no-any-return]


def _build(tp: Any, data: object, where: str) -> Any:
    origin = get_origin(tp)
    family = _FAMILIES.get(tp)
    if family is not None:
        return _build_dataclass(family.pick(data, where), data, where)
    if dataclasses.is_dataclass(tp):
        return _build_dataclass(tp, data, where)
    if origin in (Union, types.UnionType):
        return _build_union(tp, data, where)
    if origin is Literal:
        if data not in get_args(tp):
            raise PlainDataError(f"{where}: {data!r} is not one of {get_args(tp)}")
        return data
    if origin in (list, tuple):
        return _build_sequence(tp, origin, data, where)
    if origin is dict or origin is Mapping:
        return _build_dict(tp, data, where)
    return _build_scalar(tp, data, where)


def _build_scalar(tp: Any, data: object, where: str) -> Any:
    if tp is Any or tp is object:
        return data
    if tp is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    if tp is type(None) and data is None:
        return None
    if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
        raise PlainDataError(f"{where}: expected {getattr(tp, '__name__', tp)}, got {data!r}")
    return data


def _build_sequence(tp: Any, origin: Any, data: object, where: str) -> Any:
    if not isinstance(data, (list, tuple)):
        raise PlainDataError(f"{where}: expected a list, got {data!r}")
    item = get_args(tp)[0] if get_args(tp) else Any
    built = [_build(item, v, f"{where}[{i}]") for i, v in enumerate(data)]
    return tuple(built) if origin is tuple else built


def _build_dict(tp: Any, data: object, where: str) -> Any:
    if not isinstance(data, Mapping):
        raise PlainDataError(f"{where}: expected an object, got {data!r}")
    key_tp, value_tp = get_args(tp) or (str, Any)
    return {_build(key_tp, k, where): _build(value_tp, v, f"{where}.{k}") for k, v in data.items()}


def _build_union(tp: Any, data: object, where: str) -> Any:
    options = get_args(tp)
    if data is None and type(None) in options:
        return None
    classes = [o for o in options if dataclasses.is_dataclass(o)]
    if classes and isinstance(data, Mapping):
        return _build(_pick_by_kind(classes, data, where), data, where)
    problems = []
    for option in options:
        try:
            return _build(option, data, where)
        except PlainDataError as problem:
            problems.append(str(problem))
    raise PlainDataError(f"{where}: {data!r} fits none of the expected shapes ({'; '.join(problems)})")


def _pick_by_kind(classes: list[Any], data: Mapping[str, object], where: str) -> Any:
    for cls in classes:
        kind = _field_defaults(cls).get("kind")
        if kind is not None and kind == data.get("kind"):
            return cls
    if len(classes) == 1:
        return classes[0]
    raise PlainDataError(f"{where}: unknown kind {data.get('kind')!r}")


def _build_dataclass(cls: Any, data: object, where: str) -> Any:
    if not isinstance(data, Mapping):
        raise PlainDataError(f"{where}: expected an object, got {data!r}")
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise PlainDataError(f"{where}: unknown field(s) {', '.join(unknown)}")
    values = {}
    for name, f in fields.items():
        if name in data:
            values[name] = _build(hints[name], data[name], f"{where}.{name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise PlainDataError(f"{where}: missing field {name!r}")
    return cls(**values)


@functools.lru_cache(maxsize=None)
def _hints(cls: Any) -> dict[str, Any]:
    return get_type_hints(cls)


@functools.lru_cache(maxsize=None)
def _field_defaults(cls: Any) -> dict[str, object]:
    return {f.name: f.default for f in dataclasses.fields(cls) if f.default is not dataclasses.MISSING}


class OpenFamily:
    """Dataclasses that share ``base`` and are told apart by the default of their ``kind``
    field, where the module that declares the base cannot name every member: each member
    joins with :meth:`member`. A field typed with ``base`` is rebuilt as the member its
    data's ``kind`` names; ``to_plain`` needs nothing, so the plain shape is the same as
    for a union of the members."""

    def __init__(self, base: type, what: str) -> None:
        if base in _FAMILIES:
            raise ValueError(f"{base.__name__} already heads a family of {_FAMILIES[base].what}s")
        self.base: type = base
        self.what: str = what
        self._members: dict[str, type] = {}
        _FAMILIES[base] = self

    def member(self, cls: type[T]) -> type[T]:
        """Decorator: ``cls`` (a dataclass below ``base``) joins under its ``kind``."""
        kind = _field_defaults(cast(Hashable, cls)).get("kind")
        if not isinstance(kind, str) or not kind or not issubclass(cls, self.base):
            raise TypeError(f"a {self.what} is a dataclass below {self.base.__name__} with a 'kind' default")
        known = self._members.setdefault(kind, cls)
        if known is not cls:
            raise ValueError(f"two {self.what}s are both called {kind!r}")
        return cls

    def pick(self, data: object, where: str) -> type:
        if not isinstance(data, Mapping):
            raise PlainDataError(f"{where}: expected an object, got {data!r}")
        kind = data.get("kind")
        found = self._members.get(kind) if isinstance(kind, str) else None
        if found is None:
            known = ", ".join(sorted(self._members)) or "none"
            raise PlainDataError(f"{where}: unknown {self.what} kind {kind!r} (known: {known})")
        return found


_FAMILIES: dict[object, OpenFamily] = {}


def clone(value: T) -> T:
    """A deep copy through plain data (faster than copy.deepcopy for our state)."""
    return from_plain(type(value), to_plain(value))


__all__ = ["OpenFamily", "PlainDataError", "clone", "from_plain", "to_plain"]

"""The compiled parts of the engine (optional), one C file per concept: the list is in src/meeple/_speedups.c."""

from typing import Any

def read_records(
    data: bytes, pos: int, prev: bytes, commands: tuple[Any, ...], events: tuple[Any, ...], record_type: type,
    decode: Any, checkpoint_every: int, /,
) -> tuple[
    list[Any], list[bytes | None], list[bytes], list[int], tuple[dict[Any, Any], int, int] | None,
    tuple[int, int, bytes, Any, BaseException | None] | None,
]: ...
def blake2b_128(data: bytes, key: bytes, /) -> bytes: ...
def read_header(
    data: bytes, magic: bytes, decode: Any, header_type: type | None = None, header_slots: tuple[Any, ...] | None = None,
    cache: dict[bytes, Any] | None = None, /,
) -> tuple[Any, bytes, int, bytes | None, bool] | None: ...
def unpack(data: bytes, decode: Any, /) -> Any: ...

class RngCore:
    """The seed, the counter and the commonest draws of ``meeple.engine.rng.Rng``, compiled."""

    seed: int
    counter: int
    def __init__(self, seed: int, counter: int = 0) -> None: ...
    def next64(self) -> int: ...
    def below(self, n: int) -> int: ...
    def shuffle_in_place(self, items: Any) -> None: ...

class SlotBuilder:
    """A builder of ``cls`` from all its fields, positionally, that sets the slots ``slots``; other calls go to ``fallback``."""

    cls: type
    fallback: Any
    def __init__(self, cls: type, slots: tuple[Any, ...], fallback: Any) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

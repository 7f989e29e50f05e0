"""The memo (workbench/memo.py) evicts the least recently used entry and is bounded by bytes."""

from __future__ import annotations

import numpy as np

from workbench.memo import Memo


def test_a_hit_keeps_an_entry_past_a_newer_one():
    memo = Memo(max_entries=2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a", lambda: -1) == 1  # a hit: "a" is now the most recent
    memo.put("c", 3)  # over two entries: the least recently used ("b") goes, not the oldest ("a")
    assert memo.lookup("b") is None
    assert memo.lookup("a") == 1 and memo.lookup("c") == 3
    assert memo.lookup("a") == 1  # a lookup counts as a use too
    memo.put("d", 4)
    assert memo.lookup("c") is None and memo.lookup("a") == 1 and len(memo) == 2


def test_bytes_bound_evicts_least_recent_arrays_first():
    kib = np.zeros(1024, dtype=np.uint8)  # 1,024 bytes each
    memo = Memo(max_bytes=3 * 1024)
    for key in "abc":
        memo.put(key, kib.copy())
    assert memo.nbytes == 3 * 1024 and len(memo) == 3
    memo.lookup("a")
    memo.put("d", kib.copy())  # 4 KiB > 3 KiB: "b" (least recently used) goes
    assert memo.nbytes <= 3 * 1024
    assert [k for k in "abcd" if memo.lookup(k) is not None] == ["a", "c", "d"]


def test_one_entry_over_the_byte_bound_is_kept_alone_and_replacing_recounts():
    memo = Memo(max_bytes=100)
    memo.put("small", 1)
    memo.put("big", np.zeros(1000, dtype=np.uint8))
    assert len(memo) == 1 and memo.nbytes == 1000  # never empty after a put; the small one went
    memo.put("big", np.zeros(10, dtype=np.uint8))
    assert memo.nbytes == 10
    memo.clear()
    assert len(memo) == 0 and memo.nbytes == 0


def test_unhashable_keys_are_computed_not_kept():
    memo = Memo()
    assert memo.get(["x"], lambda: 5) == 5
    assert memo.lookup(["x"]) is None and len(memo) == 0


def test_a_hashed_key_finds_the_same_entry_and_hashes_once():
    """``hashed(key)`` is the same entry as another ``hashed`` of an equal key; its hash is
    computed once however often it is used; an unhashable key comes back as it is (kept nowhere)."""
    from workbench.memo import hashed

    class Counted:
        calls = 0

        def __hash__(self) -> int:
            Counted.calls += 1
            return 7

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Counted)

    memo = Memo()
    k = hashed(("x", Counted()))
    assert Counted.calls == 1
    memo.put(k, 1)
    assert memo.lookup(k) == 1 and memo.get(k, lambda: 2) == 1
    assert Counted.calls == 1  # put, lookup and get did not hash it again
    assert memo.lookup(hashed(("x", Counted()))) == 1  # an equal key: the same entry
    assert memo.lookup(hashed(("y", Counted()))) is None
    raw = ["unhashable"]
    assert hashed(raw) is raw
    memo.put(hashed(raw), 3)
    assert len(memo) == 1


def test_a_given_size_is_counted_and_tuples_are_counted_through():
    memo = Memo(max_bytes=10_000)
    memo.put("given", "anything", nbytes=4_000)
    assert memo.nbytes == 4_000
    memo.put("tuple", (("a", "b"), (np.zeros(100), np.zeros(50)), None))
    # 64 for the tuple, 64 + 2 x 64 for the labels, 64 + 1,200 bytes of arrays, 64 for None
    assert memo.nbytes == 4_000 + 64 + 192 + 1_264 + 64


def test_threads_sharing_a_memo_keep_it_whole():
    """The panels compute on worker threads: hits, puts and evictions from 8 threads at once raise
    nothing, and the memo's byte count stays the sum of its entries' (a hit's move to the end and a
    put's evictions each hold the lock)."""
    import sys
    import threading

    memo = Memo(max_entries=50, max_bytes=10**9)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        rng = np.random.default_rng(seed)
        try:
            for k in rng.integers(0, 200, 3_000).tolist():
                if k % 3:
                    memo.get(k, lambda k=k: np.zeros(k % 7 + 1))
                else:
                    memo.lookup(k)
        except BaseException as exc:  # noqa: BLE001 (any error of a thread is the test's failure)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(8)]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switched every few bytecodes: the unguarded memo lost count here
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    assert errors == []
    assert len(memo) <= 50
    assert memo.nbytes == sum(size for _, size in memo._data.values())

"""Disjoint sets over ``0..n-1``: the one union-find.

Mentions grouped into works, online records grouped into versions and library entries
grouped into clusters are all "link what the rules say is linked, transitively". The
smallest index is always a set's root, so the groups that come out do not depend on the
order in which pairs were linked: output stays stable from one run to the next.
"""

from __future__ import annotations


class UnionFind:
    """Disjoint sets over ``0..n-1``; the smallest index is each set's root."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        """The root (smallest index) of ``x``'s set; compresses the path it walked."""
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: int, b: int) -> None:
        """Join the sets of ``a`` and ``b`` under the smaller root."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def groups(self) -> list[list[int]]:
        """Every set as its indexes in increasing order; sets ordered by their smallest index."""
        by_root: dict[int, list[int]] = {}
        for i in range(len(self.parent)):
            by_root.setdefault(self.find(i), []).append(i)
        return list(by_root.values())

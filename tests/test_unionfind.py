"""The one union-find: the smallest index is each set's root, whatever the order of links."""

from __future__ import annotations

from hypothesis import given, strategies as st

from citekit.core.unionfind import UnionFind


def test_the_smallest_index_is_the_root_and_groups_come_in_order():
    links = UnionFind(6)
    links.union(4, 2)
    links.union(5, 0)
    links.union(2, 5)
    assert [links.find(i) for i in range(6)] == [0, 1, 0, 3, 0, 0]
    assert links.groups() == [[0, 2, 4, 5], [1], [3]]


@given(st.integers(1, 12).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=20))))
def test_groups_do_not_depend_on_the_order_of_links(case):
    n, pairs = case
    forward, backward = UnionFind(n), UnionFind(n)
    for a, b in pairs:
        forward.union(a, b)
    for a, b in reversed(pairs):
        backward.union(b, a)
    assert forward.groups() == backward.groups()
    for group in forward.groups():
        assert all(forward.find(i) == group[0] == min(group) for i in group)

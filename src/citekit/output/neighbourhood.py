"""A picture of a tag's citation neighbourhood: its papers, the top suggestions, who cites whom.

Drawn as a static SVG (or an HTML page holding that SVG and the list of suggestions), with
no script and nothing fetched from elsewhere, so it opens offline in any browser. The layout
is networkx's spring layout with a fixed seed (the same picture every run); the SVG is
written here, because Graphviz's ``dot`` binary is not something every machine has. Library
papers and suggestions have their own colours, a classic is drawn hollow, a node's size
grows with the citations it receives within the picture, and hovering over a node shows
its title and, for a suggestion, the reason it is suggested (an SVG ``<title>``, which
every browser shows as a tooltip).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

WIDTH, HEIGHT, MARGIN = 1100, 760, 90
#: room on the right for the labels, which are written to the right of their nodes
LABEL_ROOM = 200
LIBRARY_COLOUR, SUGGESTED_COLOUR, OWN_COLOUR = "#3465a4", "#f57900", "#4e9a06"


@dataclass
class Node:
    """One paper of the picture."""

    id: str
    label: str
    title: str
    suggested: bool = False
    classic: bool = False
    #: the user's own paper (``graph --tag T --mine PAPER``)
    own: bool = False
    #: shown on hover: the reason for a suggestion, the key and title for a library paper
    hover: str = ""
    rank: int = 0


@dataclass
class Picture:
    """What the picture shows: the nodes and the citation edges (citing → cited)."""

    heading: str
    nodes: list[Node] = field(default_factory=list)
    edges: list[tuple[str, str]] = field(default_factory=list)


#: rounds of pushing overlapping nodes apart after the spring layout, and the gap kept between rims
SPREAD_ROUNDS, GAP = 300, 10.0
#: the height kept along the bottom for nodes no citation joins to the rest
ALONE_ROW = 60
#: the width of a label's character and a text line, for keeping labels off other nodes and labels
CHAR_WIDTH, LINE_HEIGHT = 6.2, 16.0


def layout(picture: Picture, radius: dict[str, float] | None = None,
           labels: dict[str, str] | None = None) -> dict[str, tuple[float, float]]:
    """Each node's place on the canvas: a spring layout (fixed seed) of the nodes joined by
    citations, scaled into the margins; nodes no edge joins stand in a row along the bottom
    (in a spring layout they drift far off and squeeze everything else into a corner); then
    nodes that overlap are pushed apart until ``GAP`` pixels separate their rims (a dense
    neighbourhood otherwise piles its best-tied suggestions on top of each other)."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(n.id for n in picture.nodes)
    g.add_edges_from(picture.edges)
    if not g:
        return {}
    alone = [n.id for n in picture.nodes if g.degree(n.id) == 0]
    joined = g.subgraph([n for n in g if g.degree(n) > 0]).to_undirected()
    bottom = HEIGHT - 2 * MARGIN - (ALONE_ROW if alone and len(joined) else 0)
    place: dict[str, list[float]] = {}
    if len(joined):
        k = 2.2 / math.sqrt(max(1, len(joined)))
        raw = nx.spring_layout(joined, seed=7, k=k, iterations=200)
        xs = [p[0] for p in raw.values()]
        ys = [p[1] for p in raw.values()]
        span_x = (max(xs) - min(xs)) or 1.0
        span_y = (max(ys) - min(ys)) or 1.0
        place = {n: [MARGIN + (p[0] - min(xs)) / span_x * (WIDTH - MARGIN - LABEL_ROOM),
                     MARGIN + 30 + (p[1] - min(ys)) / span_y * (bottom - 30)] for n, p in raw.items()}
    step = (WIDTH - MARGIN - LABEL_ROOM) / max(1, len(alone))
    for i, n in enumerate(alone):
        place[n] = [MARGIN + step * (i + 0.5) if len(alone) > 1 else MARGIN,
                    HEIGHT - MARGIN if len(joined) else HEIGHT / 2]
    return _spread(place, radius or {}, labels or {})


def _spread(place: dict[str, list[float]], radius: dict[str, float],
            labels: dict[str, str]) -> dict[str, tuple[float, float]]:
    names = sorted(place)
    for _ in range(SPREAD_ROUNDS):
        moved = False
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                (xa, ya), (xb, yb) = place[a], place[b]
                dx, dy = xb - xa, yb - ya
                left = a if xa <= xb else b
                reach = radius.get(left, 6) + 3 + CHAR_WIDTH * len(labels.get(left, ""))
                if abs(dy) < LINE_HEIGHT and abs(dx) < reach:  # a label runs into the node to its right
                    shift = (LINE_HEIGHT - abs(dy)) / 2 + 0.5
                    sign = 1.0 if dy > 0 or (dy == 0 and a < b) else -1.0
                    place[a][1] -= sign * shift
                    place[b][1] += sign * shift
                    moved = True
                    continue
                dist = math.hypot(dx, dy)
                need = radius.get(a, 6) + radius.get(b, 6) + GAP
                if dist >= need:
                    continue
                if dist < 1e-6:  # the same spot: part them along a fixed direction
                    dx, dy, dist = 1.0, 0.0, 1.0
                push = (need - dist) / 2 / dist
                place[a][0] -= dx * push
                place[a][1] -= dy * push
                place[b][0] += dx * push
                place[b][1] += dy * push
                moved = True
        for p in place.values():  # stay on the canvas
            p[0] = min(max(p[0], MARGIN / 2), WIDTH - LABEL_ROOM)
            p[1] = min(max(p[1], MARGIN / 2 + 30), HEIGHT - MARGIN / 2)
        if not moved:
            break
    return {n: (p[0], p[1]) for n, p in place.items()}


def svg(picture: Picture) -> str:
    """The picture as a standalone SVG document."""
    cited = {n.id: 0 for n in picture.nodes}
    for _, dst in picture.edges:
        cited[dst] = cited.get(dst, 0) + 1
    radius = {n.id: 6 + 3 * math.sqrt(cited.get(n.id, 0)) for n in picture.nodes}
    place = layout(picture, radius, {n.id: n.label for n in picture.nodes})
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
           f'height="{HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12" role="img" '
           f'aria-label="{_a(picture.heading)}">',
           f"<title>{_t(picture.heading)}</title>",
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#888"/></marker></defs>',
           '<rect width="100%" height="100%" fill="white"/>', '<g class="edges" stroke-width="1">']
    suggested = {n.id for n in picture.nodes if n.suggested}
    for src, dst in picture.edges:
        if src not in place or dst not in place:
            continue
        (x1, y1), (x2, y2) = place[src], place[dst]
        d = math.hypot(x2 - x1, y2 - y1) or 1.0
        r = radius[dst] + 2  # the arrow ends at the cited node's rim
        # the ties that make a suggestion stand out; the library's own citations stay in the background
        tie = src in suggested or dst in suggested
        stroke = 'stroke="#f57900" stroke-opacity="0.45"' if tie else 'stroke="#999" stroke-opacity="0.35"'
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2 - (x2 - x1) * r / d:.1f}" '
                   f'y2="{y2 - (y2 - y1) * r / d:.1f}" {stroke} marker-end="url(#arrow)"/>')
    out.append("</g>")
    out.append('<g class="nodes">')
    for n in picture.nodes:
        if n.id not in place:
            continue
        x, y = place[n.id]
        colour = SUGGESTED_COLOUR if n.suggested else OWN_COLOUR if n.own else LIBRARY_COLOUR
        fill = "white" if n.classic else colour
        kind = "suggestion" if n.suggested else "own" if n.own else "library"
        out.append(f'<g class="node {kind}" data-id="{_a(n.id)}"><title>{_t(n.hover or n.title)}</title>'
                   f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius[n.id]:.1f}" fill="{fill}" stroke="{colour}" '
                   f'stroke-width="2"/>'
                   f'<text x="{x + radius[n.id] + 3:.1f}" y="{y + 4:.1f}" fill="#222" '
                   f'paint-order="stroke" stroke="white" stroke-width="3">{_t(n.label)}</text></g>')
    out.append("</g>")
    out.append(f'<g class="legend" font-size="13"><circle cx="20" cy="20" r="7" fill="{LIBRARY_COLOUR}"/>'
               '<text x="32" y="24">in your library</text>'
               f'<circle cx="160" cy="20" r="7" fill="{SUGGESTED_COLOUR}"/><text x="172" y="24">suggested</text>'
               f'<circle cx="270" cy="20" r="7" fill="white" stroke="{SUGGESTED_COLOUR}" stroke-width="2"/>'
               '<text x="282" y="24">classic (cited by the whole field)</text>'
               + (f'<circle cx="520" cy="20" r="7" fill="{OWN_COLOUR}"/><text x="532" y="24">your paper</text>'
                  if any(n.own for n in picture.nodes) else "") +
               '<text x="20" y="44" fill="#555">arrows: cites; size: citations within this picture; '
               'hover a node for why</text></g>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def html_page(picture: Picture) -> str:
    """An HTML page with the picture and the suggestions listed with their reasons (no script, no CDN)."""
    items = "\n".join(f'<li value="{n.rank}"><span class="t">{_t(n.title)}</span><br><span class="why">'
                      f"{_t(n.hover)}</span></li>"
                      for n in sorted((n for n in picture.nodes if n.suggested), key=lambda n: n.rank))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_t(picture.heading)}</title>\n<style>body{{font-family:Helvetica,Arial,sans-serif;"
            "margin:1.5em;color:#222}} svg{max-width:100%;height:auto;border:1px solid #ddd}"
            " .node:hover circle{stroke-width:4} .why{color:#555;font-size:90%} li{margin-bottom:.5em}</style>"
            f"</head><body>\n<h1>{_t(picture.heading)}</h1>\n{svg(picture)}"
            f"<h2>Suggestions</h2>\n<ol>\n{items}\n</ol>\n</body></html>\n")


def _t(text: str) -> str:
    return html.escape(str(text), quote=False)


def _a(text: str) -> str:
    return html.escape(str(text), quote=True)

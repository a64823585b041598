"""A made-up cited record the check's tests read: a paper whose abstract states its purpose, its
system and a finding, so a sentence can copy it, cut it or say it well."""

from __future__ import annotations

from citekit.output.record_check import CitedRecord

WALL = CitedRecord("p", "Paper Walls: Folding Displays for Classrooms",
                   "Classrooms rarely have room for large displays. We present Paper Walls, a folding display made of "
                   "printed paper panels with conductive ink, which teachers hang on a wall and fold away after a "
                   "lesson. In a four-week deployment in three schools, the system was used daily, and teachers, who "
                   "previously relied on projectors, said that the panels, unlike projectors, kept the room bright and "
                   "let pupils walk up to the content.")

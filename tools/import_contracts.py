"""Import-linter contract types of our own, registered in pyproject.toml ([tool.importlinter]
`contract_types`) and checked by `lint-imports` (`make lint`).

`acyclic`: no import circle between the modules of a package, however long. import-linter's
own `acyclic_siblings` compares packages as wholes (api against auth), which would forbid
imports in both directions between two packages even where no module is part of a circle;
this one looks at modules, as Python imports them. Every import grimp records counts: those
inside functions (they run, later) and those under `if TYPE_CHECKING:` (a circle of types is
the same knot, and the layering contracts count them too). There is no option to name an
exception: a circle is untied by moving the shared piece.

    [[tool.importlinter.contracts]]
    name = "No import circle in carevault"
    type = "acyclic"
    containers = ["carevault"]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from itertools import pairwise

import grimp
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck

# The circles a broken contract prints at most (each with the imports that close it).
MAX_CIRCLES_SHOWN = 10


class AcyclicContract(Contract):
    """No module of `containers` reaches itself again through imports."""

    containers = fields.ListField(subfield=fields.StringField())

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        modules = set()
        for container in self._containers():
            if container not in graph.modules:
                raise ValueError(f"{container} is not in the import graph")
            modules |= {container, *graph.find_descendants(container)}
        circles = [sorted(group) for group in strongly_connected(graph, modules) if len(group) > 1]
        circles.sort()
        return ContractCheck(
            kept=not circles,
            metadata={"circles": [(group, circle_through(graph, group)) for group in circles]},
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        circles: list[tuple[list[str], list[tuple[str, str, list[int]]]]]
        circles = check.metadata["circles"]
        for group, chain in circles[:MAX_CIRCLES_SHOWN]:
            output.print_error(f"Import circle among {', '.join(group)}:", bold=False)
            output.new_line()
            for importer, imported, lines in chain:
                output.print_error(
                    f"- {importer} -> {imported} (l.{', '.join(map(str, lines))})", bold=False
                )
            output.new_line()
        if len(circles) > MAX_CIRCLES_SHOWN:
            output.print_error(f"(and {len(circles) - MAX_CIRCLES_SHOWN} more circles)")

    def _containers(self) -> list[str]:
        containers: list[str] = self.containers  # type: ignore[assignment]  # set by the field
        return containers


def strongly_connected(graph: grimp.ImportGraph, modules: set[str]) -> Iterator[set[str]]:
    """The strongly connected groups of `modules` under their imports of one another (Tarjan's
    algorithm, iterative: an import chain may be deeper than Python's recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()

    def imported_by(module: str) -> list[str]:
        return sorted(graph.find_modules_directly_imported_by(module) & modules)

    for root in sorted(modules):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(imported_by(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, pending = work[-1]
            following = next(pending, None)
            if following is not None:
                if following not in index:
                    index[following] = low[following] = len(index)
                    stack.append(following)
                    on_stack.add(following)
                    work.append((following, iter(imported_by(following))))
                elif following in on_stack:
                    low[module] = min(low[module], index[following])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == module:
                        break
                yield group


def circle_through(
    graph: grimp.ImportGraph, group: Iterable[str]
) -> list[tuple[str, str, list[int]]]:
    """The shortest circle through the group's first module (by name), as (importer, imported,
    line numbers): a breadth-first search within the group until an import leads back."""
    members = set(group)
    start = min(members)
    parent: dict[str, str] = {start: start}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        following = sorted(graph.find_modules_directly_imported_by(module) & members)
        if start in following:
            steps = [start, module]
            while steps[-1] != start:
                steps.append(parent[steps[-1]])
            steps.reverse()  # start, ..., module, start
            return [
                (importer, imported, _lines(graph, importer, imported))
                for importer, imported in pairwise(steps)
            ]
        for imported in following:
            if imported not in parent:
                parent[imported] = module
                queue.append(imported)
    raise ValueError(f"no circle through {start}: the group is not strongly connected")


def _lines(graph: grimp.ImportGraph, importer: str, imported: str) -> list[int]:
    details = graph.get_import_details(importer=importer, imported=imported)
    return sorted({detail["line_number"] for detail in details})

"""Reading Dockerfile and docker-compose.yml without Docker: what the tests compare."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[3]
COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"


def load_compose(path: Path = COMPOSE_FILE) -> dict[str, Any]:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(document, dict), f"{path.name} must be a mapping"
    return document


def environment_of(service: dict[str, Any]) -> dict[str, str]:
    """A service's environment as a dict, from either compose form (mapping or KEY=VALUE list)."""
    raw = service.get("environment") or {}
    if isinstance(raw, dict):
        return {str(key): "" if value is None else str(value) for key, value in raw.items()}
    result: dict[str, str] = {}
    for item in raw:
        key, _, value = str(item).partition("=")
        result[key] = value
    return result


def volume_mounts(service: dict[str, Any]) -> dict[str, str]:
    """Named-volume mounts of a service (short syntax): volume name -> path in the container."""
    mounts = {}
    for item in service.get("volumes", []):
        source, _, rest = str(item).partition(":")
        target = rest.split(":")[0]
        if not source.startswith((".", "/", "~")):
            mounts[source] = target
    return mounts


def command_steps(service: dict[str, Any]) -> list[list[str]]:
    """`sh -c "a && b && exec c"` as [[a…], [b…], [exec, c…]]; a plain command as one step."""
    command = service["command"]
    words = shlex.split(command) if isinstance(command, str) else [str(w) for w in command]
    if words[:2] == ["sh", "-c"]:
        assert len(words) == 3, "sh -c takes the whole sequence as one argument"
        return [shlex.split(step) for step in words[2].split("&&")]
    return [words]


@dataclass
class Stage:
    name: str
    base: str
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        return [value for key, value in self.instructions if key == keyword]

    def copies(self) -> list[tuple[str | None, list[str], str]]:
        """(from-stage or None, sources, destination) of every COPY."""
        found = []
        for value in self.all("COPY"):
            words = shlex.split(value)
            source_stage = None
            while words[0].startswith("--"):
                flag = words.pop(0)
                if flag.startswith("--from="):
                    source_stage = flag.removeprefix("--from=")
            found.append((source_stage, words[:-1], words[-1]))
        return found

    def env(self) -> dict[str, str]:
        values: dict[str, str] = {}
        for value in self.all("ENV"):
            for word in shlex.split(value):
                key, _, val = word.partition("=")
                values[key] = val
        return values

    def args(self) -> dict[str, str]:
        return dict(_arg(value) for value in self.all("ARG"))

    def exec_form(self, keyword: str) -> list[str]:
        """The last CMD/ENTRYPOINT in JSON form."""
        import json

        values = self.all(keyword)
        assert values, f"stage {self.name} has no {keyword}"
        parsed = json.loads(values[-1])
        assert isinstance(parsed, list)
        return [str(word) for word in parsed]


def _arg(value: str) -> tuple[str, str]:
    name, _, default = value.partition("=")
    return name.strip(), default.strip()


@dataclass
class Dockerfile:
    global_args: dict[str, str]
    stages: list[Stage]

    @property
    def stage_names(self) -> list[str]:
        return [stage.name for stage in self.stages]

    def stage(self, name: str) -> Stage:
        for stage in self.stages:
            if stage.name == name:
                return stage
        raise KeyError(name)

    def base_image(self, stage: Stage) -> str:
        return re.sub(r"\$\{(\w+)\}", lambda m: self.global_args[m.group(1)], stage.base)


def parse_dockerfile(path: Path = DOCKERFILE) -> Dockerfile:
    """Instructions with continuation lines joined and comments dropped; enough for ours."""
    lines: list[str] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        stripped = raw.strip()
        if stripped.startswith("#") or not stripped:
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        lines.append(pending + stripped)
        pending = ""
    assert not pending, "a continuation line ends the Dockerfile"
    global_args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in lines:
        keyword, _, value = line.partition(" ")
        keyword, value = keyword.upper(), value.strip()
        if keyword == "FROM":
            words = value.split()
            assert len(words) == 3 and words[1].upper() == "AS", f"unnamed stage: {line}"
            stages.append(Stage(words[2], words[0]))
        elif not stages:
            assert keyword == "ARG", f"only ARG may come before the first FROM: {line}"
            name, default = _arg(value)
            global_args[name] = default
        else:
            stages[-1].instructions.append((keyword, value))
    return Dockerfile(global_args, stages)

"""The documents a reader relies on: the benchmark reference stays short, names no path outside
the repository and no work session, and every command it cites exists with the options it
uses; links between the documents land on a heading."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from dualtrace.cli import cli

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "benchmarks.md"
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
MAX_REFERENCE_LINES = 400
SCRIPT = re.compile(r"bench/\w+\.py")

# A machine's folders, the team's shared folder, a way up out of the checkout.
OUTSIDE = re.compile(r"/work/|(?<![\w.-])shared/|(?<!\]\()\.\./|(?<![\w.~])/(?:tmp|mnt|root)/")
# "The fifth session", "this session's changes", "other sessions' jobs": who measured when,
# not the sessions a conversation is made of.
WORK_SESSION = re.compile(
    r"\b(?:second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|this|previous|work"
    r"|helper's)\s+session\b|(?<!after the )\blast session's\b|\bsessions' jobs\b"
    r"|\bsession's (?:start|end|changes)\b|\bstart of (?:the )?session\b",
    re.IGNORECASE,
)


def _lines_matching(path: Path, pattern: re.Pattern[str]) -> list[str]:
    return [
        f"{path.name}:{n}: {line.strip()}"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]


def test_the_reference_is_under_the_line_limit() -> None:
    lines = len(REFERENCE.read_text(encoding="utf-8").splitlines())
    assert lines < MAX_REFERENCE_LINES, f"docs/benchmarks.md has {lines} lines"


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_no_document_names_a_path_outside_the_repository(path: Path) -> None:
    assert _lines_matching(path, OUTSIDE) == []


def test_no_bench_script_names_a_machine_folder() -> None:
    """The usage lines of bench/ scripts are commands a reader copies: data by path argument."""
    machine = re.compile(r"/work/|(?<![\w.-])shared/")
    found = [
        line for p in sorted((ROOT / "bench").glob("*.py")) for line in _lines_matching(p, machine)
    ]
    assert found == []


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_no_document_names_a_work_session(path: Path) -> None:
    assert _lines_matching(path, WORK_SESSION) == []


def test_the_patterns_catch_what_they_are_for() -> None:
    for text in ("(fifth session)", "this session's changes", "other sessions' jobs"):
        assert WORK_SESSION.search(text), text
    for text in ("../shared/data/locomo", "`/work/runs/s9/xlp.py`", "--db /tmp/loc.db"):
        assert OUTSIDE.search(text), text
    for text in ("the day after the last session", "session all@2000", "[notebook](../x.md)"):
        assert not WORK_SESSION.search(text) and not OUTSIDE.search(text), text


def _commands(text: str) -> list[str]:
    """Every command line the page shows: lines of its code blocks (continuations joined)
    and inline code that starts like a command."""
    found: list[str] = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.DOTALL):
        found += [c.strip() for c in block.replace("\\\n", " ").splitlines() if c.strip()]
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL).replace("\n", " ")
    starts = ("dualtrace ", "python bench/", "bench/", "pytest ")
    found += [c for c in re.findall(r"`([^`]+)`", prose) if c.startswith(starts)]
    return found


def _words(command: str) -> list[str]:
    command = re.sub(r"\s#\s.*$", "", command)  # a trailing comment
    return [w.strip("[]") for w in shlex.split(command)]


def _options(command: click.Command) -> set[str]:
    return {o for p in command.params for o in (*p.opts, *p.secondary_opts)} | {"--json", "--help"}


def _check_dualtrace(words: list[str]) -> None:
    """The command path exists (`a|b`: each of them) and has every option the line uses."""
    command: click.Command = cli
    takes_value = False  # the word after --db or --url is a file, not a command
    for n, word in enumerate(words[1:], 1):
        where = " ".join(words[:n])
        if word.startswith("--"):
            assert word.split("=")[0] in _options(command), f"{where} has no option {word}"
            takes_value = word in {"--db", "--url"}
            continue
        if isinstance(command, click.Group) and not takes_value:
            names = word.split("|")
            missing = [name for name in names if name not in command.commands]
            assert missing == [], f"{where} has no command {missing}"
            if len(names) > 1:
                return
            command = command.commands[word]
        takes_value = False
    named = "--help" in words or not isinstance(command, click.Group)
    assert named, f"{' '.join(words)} names no command"


def _check_script(words: list[str]) -> None:
    script = next(w for w in words if SCRIPT.fullmatch(w))
    assert (ROOT / script).is_file(), f"no script {script}"
    source = (ROOT / script).read_text(encoding="utf-8")
    for word in words:
        if word.startswith("--"):
            assert f'"{word}"' in source, f"{script} has no option {word}"


def test_every_cited_command_exists_with_its_options() -> None:
    commands = _commands(REFERENCE.read_text(encoding="utf-8"))
    checked = 0
    for command in commands:
        words = _words(command)
        if words[0] == "dualtrace":
            _check_dualtrace(words)
        elif any(SCRIPT.fullmatch(w) for w in words):
            _check_script(words)
        elif words[0] == "pytest":
            for word in words[1:]:
                assert word.startswith("-") or (ROOT / word).exists(), f"no test file {word}"
        else:
            continue
        checked += 1
    assert checked >= 20, f"only {checked} commands found: is the extraction broken?"


def test_every_repository_path_the_reference_names_exists() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    paths = set(re.findall(r"\b((?:src|tests|bench|docs)/[\w/.-]+\.(?:py|jsonl|md))\b", text))
    assert paths, "no path found: is the pattern broken?"
    assert sorted(p for p in paths if not (ROOT / p).exists()) == []


def _slugs(path: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens,
    repeats numbered."""
    seen: dict[str, int] = {}
    slugs = set()
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        slugs.add(slug if count == 0 else f"{slug}-{count}")
    return slugs


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_links_between_documents_land_on_a_heading(path: Path) -> None:
    broken = []
    for target, anchor in re.findall(r"\]\(([\w./-]*\.md|)(?:#([^)\s]+))?\)", path.read_text()):
        linked = (path.parent / target).resolve() if target else path
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and anchor not in _slugs(linked):
            broken.append(f"{target}#{anchor}")
    assert broken == []

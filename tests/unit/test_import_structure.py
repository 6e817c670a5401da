"""The package's import structure (scripts/import_structure.py): no import runs up a floor, no circle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from module_files import load_module

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "import_structure.py"


@pytest.fixture(scope="module")
def structure() -> ModuleType:
    return load_module("import_structure", SCRIPT)


def test_no_import_runs_up_a_floor_and_no_modules_import_each_other(structure: ModuleType) -> None:
    imports = list(structure.imports_of(ROOT / "src"))
    assert len({item.importer for item in imports}) >= 140  # the whole package was read
    assert structure.upward(imports) == []
    assert structure.circles(imports) == []


def test_score_s_data_enters_the_command_once_through_the_corpus(structure: ModuleType) -> None:
    names = structure.names_from_below(list(structure.imports_of(ROOT / "src")), structure.SCORE_COMMAND)
    assert "read_corpus" in names
    assert not {"RunScorer", "RepeatedRuns", "judge_paths", "PartialSum", "ScoredRuns"} & set(names)


def _tree(tmp_path: Path, modules: dict[str, str]) -> Path:
    for name, text in {"__init__.py": "", **modules}.items():
        path = tmp_path / "evalscore" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_an_import_up_a_floor_a_lazy_one_too_is_found(structure: ModuleType, tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "inputs/__init__.py": "",
            "inputs/reader.py": "def f():\n    from evalscore.scoring.engine import g\n",
            "scoring/__init__.py": "",
            "scoring/engine.py": "from evalscore.inputs import reader\n",
            "printable.py": "from evalscore.version import v\n",
            "version.py": "",
        },
    )
    imports = list(structure.imports_of(src))
    assert [(item.importer, item.imported) for item in structure.upward(imports)] == [
        ("evalscore.inputs.reader", "evalscore.scoring.engine")
    ]
    assert structure.circles(imports) == [["evalscore.inputs.reader", "evalscore.scoring.engine"]]


def test_a_circle_through_three_modules_of_one_floor_is_found(structure: ModuleType, tmp_path: Path) -> None:
    src = _tree(
        tmp_path,
        {
            "a.py": "import evalscore.b\n",
            "b.py": "from evalscore import c\n",
            "c.py": "from evalscore.a import x\n",
            "d.py": "from evalscore.a import x\n",
        },
    )
    imports = list(structure.imports_of(src))
    assert len(imports) == 4
    assert structure.upward(imports) == []
    assert structure.circles(imports) == [["evalscore.a", "evalscore.b", "evalscore.c"]]


def test_a_package_on_no_floor_is_named(structure: ModuleType, tmp_path: Path) -> None:
    src = _tree(tmp_path, {"newwing/__init__.py": "", "newwing/part.py": "from evalscore.version import v\n"})
    with pytest.raises(SystemExit, match="package newwing is on no floor"):
        structure.upward(list(structure.imports_of(src)))


def test_the_script_exits_0_on_this_tree_and_prints_its_figures() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ": 0 run up, 0 circle(s)" in done.stdout

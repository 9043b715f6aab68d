"""The Rust half of plysearch (see the package's docstring); use the functions of `plysearch` itself."""

from typing import Any, List, Optional

__version__: str

def call(command: str, request: str) -> str:
    """Runs a built-in game's command on a JSON request; the JSON `ply COMMAND --json` prints."""

def games() -> str:
    """What `ply list --json` prints."""

def search_game(game: Any, command: str, request: str, state: Optional[Any] = ..., moves: Optional[List[Any]] = ...) -> str:
    """Runs solve/analyze/compare/trace on a game written in Python; the report's JSON."""

def learn_game(game: Any, out: str, options: str) -> str:
    """The AlphaZero loop on a game written in Python with encode/action_index/policy_size; each generation's figures as JSON."""

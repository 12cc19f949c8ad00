"""The ``companion`` command: list the games, play one from setup to its end,
replay a saved game, run the table service, and each pack's own commands
(Ravenloft's ``demo`` and ``resolve``).

Every command drives the same engine the table runs: a prompt is answered (by
a policy, a script or a person at the keyboard), the engine folds the answer
in, and the effects are printed as the words the table would see
(companion/terminal.py). Saved games are game logs (companion/gamelog.py), so
a game played here can be replayed, or loaded by the table service.

Exit codes: 0 done, 1 stopped early (the player quit, a script ran out),
2 bad input (a file, a card, a setup the engine refuses).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable, Sequence

from companion.engine.errors import SetupError
from companion.forecastcli import add_forecast_parser
from companion.gamelog import GameLogError, replay
from companion.games.gamepack import GamePack
from companion.games.registry import DEFAULT_PACK, pack_makers
from companion.terminal import (ENGINE_FAULTS, CliError, Session, finish, load_game_log, make_answerer,
                                policy_options, say, show_opening, show_replayed, show_summary, start_game)

#: ``play`` stops after this many inputs unless told otherwise: a policy that
#: keeps giving the same refused-then-rerolled answer must not run forever.
DEFAULT_MAX_INPUTS = 5000


def load_pack(pack_id: str, where: str = "--game") -> GamePack:
    makers = pack_makers()
    if pack_id not in makers:
        known = " or ".join(repr(p) for p in sorted(makers))
        raise CliError(where, f"this is a log of {pack_id!r}, not {known}: no such game on this box" if where != "--game"
                       else f"no game {pack_id!r} on this box (the games: {', '.join(sorted(makers))})")
    try:
        return makers[pack_id]()
    except SetupError as problem:
        raise CliError(where, str(problem)) from None


def cmd_games(args: argparse.Namespace) -> int:
    for pack_id, make in sorted(pack_makers().items()):
        say(f"{pack_id:<18} {make().title}")
    return 0


def cmd_play(argv: Sequence[str]) -> int:
    """``play --game ID`` then the game's own setup options (two passes: the game decides them)."""
    first = argparse.ArgumentParser(add_help=False)
    first.add_argument("--game", default=DEFAULT_PACK)
    pack = load_pack(first.parse_known_args(argv)[0].game)
    parser, options = _play_parser(pack)
    args = parser.parse_args(argv)
    try:
        setup = pack.cli().setup(args)
    except ValueError as problem:
        raise CliError(options, str(problem)) from None
    game = start_game(pack, {"setup": dict(setup)}, options)
    session = Session(pack, game, make_answerer(pack, args), quiet=args.quiet, save=args.save)
    show_opening(game, args.quiet)
    return finish(session, session.run(lambda g: g.over, args.max_inputs))


def _play_parser(pack: GamePack) -> tuple[argparse.ArgumentParser, str]:
    """The parser, and the pack's setup options by name (``--monsters/--heroes``), for errors."""
    parser = argparse.ArgumentParser(prog="companion play", description=f"Play {pack.title} from setup to its end.")
    parser.add_argument("--game", default=DEFAULT_PACK, help=f"the game (default: {DEFAULT_PACK}; companion games)")
    before = len(parser._actions)
    pack.cli().add_play_options(parser)
    options = "/".join(action.option_strings[-1] for action in parser._actions[before:]) or "the setup"
    policy_options(parser, ("random", "first", "interactive", "script"), "random")
    parser.add_argument("--script", type=Path, metavar="ANSWERS.json", help="answers for --policy script")
    parser.add_argument("--max-inputs", type=int, default=DEFAULT_MAX_INPUTS,
                        help=f"stop after this many inputs (default: {DEFAULT_MAX_INPUTS})")
    parser.add_argument("--save", type=Path, metavar="LOG.json", help="save the game log here")
    parser.add_argument("--quiet", action="store_true", help="print only the outcome and the table")
    return parser, options


def cmd_replay(args: argparse.Namespace) -> int:
    where = str(args.log)
    log = load_game_log(args.log)
    pack = load_pack(log.game, where)
    try:
        game = replay(pack.rules, log, where, show_replayed if args.steps else None,
                      show_opening if args.steps else None)
    except ENGINE_FAULTS as fault:
        raise CliError(where, f"the engine could not replay it ({type(fault).__name__}: {fault})") from None
    say(f"Replayed {game.version} inputs from {where}.")
    return show_summary(pack, game, 0)


def cmd_serve(options: Sequence[str]) -> int:
    """The service lives in companion.server; imported here so the other commands start fast."""
    from companion.server.serve import main as serve_main

    return serve_main(list(options))


# -- the parser ----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="The table companion (terminal edition): "
                                     "list the games, play or replay one, run the Monster Phase, serve the tablets.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("serve", help="run the table service for the tablets (serve --help for its options)")
    commands.add_parser("games", help="list the games on this box").set_defaults(run=cmd_games)
    commands.add_parser("play", help="play a new game from setup until it ends (play --game ID --help)")
    replaying = commands.add_parser("replay", help="replay a saved game log")
    replaying.add_argument("log", type=Path, metavar="LOG.json")
    replaying.add_argument("--steps", action="store_true", help="print every step, not just the final table")
    replaying.set_defaults(run=cmd_replay)
    add_forecast_parser(commands, load_pack)
    for make in pack_makers().values():
        make().cli().add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["serve"]:  # its options (even --help) belong to the service's own parser
            return cmd_serve(argv[1:])
        if argv[:1] == ["play"]:  # its options depend on the game (--game)
            return cmd_play(argv[1:])
        args = build_parser().parse_args(argv)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except (CliError, GameLogError) as problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return quiet_broken_pipe()


def quiet_broken_pipe() -> int:
    """Output piped into ``head`` that stopped reading: end quietly, as other tools do."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


if __name__ == "__main__":
    raise SystemExit(main())

"""This pack's part of the ``companion`` command: the options of ``play --game horrified`` (the
monsters, the heroes, a difficulty, and another Horrified board for a mixed game), its policies
and the table summary. Left out, a game is the first game the rules suggest (the Creature and
Dracula) for two heroes, dealt at random to the random policy.

    companion play --game horrified --monsters dracula,creature --policy random --seed 7
    companion play --game horrified --board OTHER-BOARD --monsters dracula,OTHER-MONSTER --heroes HERO,HERO
"""

from __future__ import annotations

import argparse
import random
from typing import Mapping

from companion.engine.game import Game, Step
from companion.engine.prompts import Prompt
from companion.engine.randomsource import ActionChooser
from companion.games.gamepack import Policy
from companion.games.horrified_core.choices import action_options, pick_weighted
from companion.games.horrified_core.rules import HorrifiedRules
from companion.games.horrified_core.simulate import FirstOption, RandomTable, context_for, play_out
from companion.games.horrified_core.state import GameState

from .mixed import MixedRules
from .ownerdata import GAME
from .packrules import HorrifiedPackRules

FIRST_MONSTERS = "dracula,creature"
FIRST_HEROES = "mayor:Ana,scientist:Ben"
#: The rules' advice on how many monsters make a game how hard.
DIFFICULTIES: Mapping[str, int] = {"first": 2, "novice": 2, "standard": 3, "challenging": 4}


class HorrifiedCli:
    """``companion.games.gamepack.PackCli`` for this pack."""

    def __init__(self, rules: HorrifiedPackRules) -> None:
        self.rules = rules

    def add_play_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--monsters", default=FIRST_MONSTERS,
                            help=f"e.g. dracula,mummy (default: {FIRST_MONSTERS}, the rules' first game)")
        parser.add_argument("--heroes", default=None, help=f"clockwise, e.g. mayor:Ana,scientist:Ben (default: "
                            f"{FIRST_HEROES}; for another board, its first two heroes)")
        parser.add_argument("--difficulty", choices=sorted(DIFFICULTIES), default=None,
                            help="check the number of monsters against the rules' advice (first: the Creature "
                                 "and Dracula; novice 2, standard 3, challenging 4)")
        parser.add_argument("--board", default=GAME, help=f"the board: {GAME} (default), or another Horrified "
                            "board for a mixed game")

    def setup(self, args: argparse.Namespace) -> Mapping[str, object]:
        monsters = split_list(args.monsters)
        check_difficulty(args.difficulty, monsters)
        heroes = args.heroes if args.heroes is not None else self._default_heroes(args)
        setup: dict[str, object] = {"monsters": monsters, "heroes": [seat(s) for s in split_list(heroes)]}
        if args.board != GAME:
            setup["board"] = args.board
        return setup

    def _default_heroes(self, args: argparse.Namespace) -> str:
        """Two heroes when none are named. The random policy is dealt its badges at random (by its seed):
        "Randomly assign Hero Badges to each player". The other policies keep a setup they can count on:
        the Mayor and the Scientist, or another board's first two heroes."""
        rules = self.rules.original if args.board == GAME else self.rules.host(args.board).rules
        badges = [h.id for h in rules.pack.heroes]
        if args.policy == "random":
            return ",".join(random.Random(args.seed).sample(badges, 2))
        return FIRST_HEROES if args.board == GAME else ",".join(badges[:2])

    def policy(self, name: str, seed: int) -> Policy:
        return random_policy(self.rules, seed) if name == "random" else first_policy(self.rules)

    def step(self, game: Game, policy: Policy) -> Step:
        return play_out(game, policy, game.version + 1)[0]

    def summary(self, game: Game) -> list[str]:
        return summary_lines(self.rules.for_state(game.state), game)

    def add_commands(self, commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
        """No commands of its own: ``play`` and ``replay`` serve it."""


def check_difficulty(name: str | None, monsters: list[str]) -> None:
    if name is None:
        return
    wanted = DIFFICULTIES[name]
    if len(monsters) != wanted:
        raise ValueError(f"a {name} game has {wanted} monsters, not {len(monsters)}")
    if name == "first" and sorted(monsters) != ["creature", "dracula"]:
        raise ValueError("the first game the rules suggest is the Creature and Dracula")


class PackPolicy:
    """A policy for whichever rules play the state (the original's, or a mixed game's): each gets a
    seeded random table of its own, made the first time it is asked."""

    def __init__(self, rules: HorrifiedPackRules, seed: int) -> None:
        self.rules, self.seed = rules, seed
        self._tables: dict[int, RandomTable] = {}

    def __call__(self, prompt: Prompt, state: object) -> object:
        rules = self.rules.for_state(state)
        table = self._tables.get(id(rules))
        if table is None:
            table = self._tables[id(rules)] = RandomTable(self.seed, rules.pack.monster_die, _chooser(rules))
        return table(prompt, state)


def _chooser(rules: HorrifiedRules) -> ActionChooser:
    def choose(prompt: Prompt, state: object, rng: random.Random) -> object:
        assert isinstance(state, GameState)
        return pick_weighted(action_options(context_for(rules, state), prompt), rng)
    return choose


def random_policy(rules: HorrifiedPackRules, seed: int) -> Policy:
    return PackPolicy(rules, seed)


def first_policy(rules: HorrifiedPackRules) -> Policy:
    """The first option everywhere (a mixed game's rules when the state is one)."""
    policies: dict[int, FirstOption] = {}

    def answer(prompt: Prompt, state: object) -> object:
        chosen = rules.for_state(state)
        return policies.setdefault(id(chosen), FirstOption(chosen))(prompt, state)
    return answer


def summary_lines(rules: HorrifiedRules, game: Game) -> list[str]:
    """The table in a few lines, read from the state alone."""
    assert isinstance(game.state, GameState)
    ctx = context_for(rules, game.state)
    state = ctx.state
    hero = state.active_hero
    frenzy = ctx.monster(state.frenzy).name if state.frenzy else "nobody"
    lines = [*mixed_lines(rules),
             f"Game over: {state.outcome}" if game.over else f"Game on: turn {state.turn}, {state.phase} phase",
             f"Terror: {state.terror} of {ctx.pack.board.terror_max}    Frenzy: {frenzy}",
             f"Whose turn: {hero.player} ({ctx.hero_name(hero.id)}), {state.actions_left} action(s) left",
             f"Monster cards left: {len(state.deck)}", "Monsters:"]
    for monster in state.monsters.values():
        where = "defeated" if monster.defeated else ctx.place_name(monster.location)
        words = ctx.monster_rules[monster.id].mat_view(ctx).get("lines") if monster.id in state.mats else []
        lines.append(f"  {ctx.monster(monster.id).name:<36} {where}" + (f"  ({'; '.join(map(str, words))})"
                                                                        if isinstance(words, list) and words else ""))
    lines.append("Heroes:")
    for h in state.heroes.values():
        items = ", ".join(ctx.pack.item(i).name for i in h.items) or "no items"
        lines.append(f"  {h.player + ' (' + ctx.hero_name(h.id) + ')':<28} {ctx.place_name(h.location):<16} {items}")
    return lines + ([f"Next question: {game.prompt.text} [{game.prompt.key}]"] if game.prompt else [])


def mixed_lines(rules: HorrifiedRules) -> list[str]:
    """A mixed game's table says first that the combination is ours."""
    return [rules.ours()] if isinstance(rules, MixedRules) else []


def split_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def seat(text: str) -> dict[str, str]:
    hero, _, player = text.partition(":")
    return {"hero": hero.strip(), "player": player.strip()} if player.strip() else {"hero": hero.strip()}

"""Every question the Monster Phase asks names the monster figure it is about (with four
monsters and three Twig Blights, "the monster" tells the table nothing), carries that
figure in its context for the tablet to show, and an order question says what each choice
starts and how far the order has got."""

from __future__ import annotations

from collections import defaultdict

from companion.engine.game import Game
from companion.engine.prompts import Prompt
from companion.games.ravenloft.rules import RavenloftRules
from companion.games.ravenloft.simulate import play_out, random_policy

RULES = RavenloftRules()
ALL_MONSTERS = [m.id for m in RULES.pack.monsters]
HEROES = [h.id for h in RULES.pack.heroes]
#: Questions about the card or the table, not about one monster.
NOT_ABOUT_A_MONSTER = {"monster-card", "item", "card-builder", "manual-event"}
ORDER_QUESTIONS = {"monster-order", "event-order"}
#: Kinds these random games must reach, so the test cannot pass by asking nothing.
MUST_SEE = {"move-toward", "path", "attack-target", "monster-dice", "defend", "defend-items",
            "monster-order", "event-order", "which-blight", "carried-off-toward"}


def monster_phase_prompts(seeds: range) -> dict[str, list[Prompt]]:
    """The prompts of many random four-monster games, by key, asked while a Monster Phase ran."""
    seen: dict[str, list[Prompt]] = defaultdict(list)
    for seed in seeds:
        heroes = HEROES[seed % 3: seed % 3 + 2 + seed % 3]
        game = RULES.new_game({"setup": {"monsters": ALL_MONSTERS, "heroes": heroes}})
        policy = random_policy(RULES, seed)
        while not game.over and game.version < 500:
            if game.state.phase == "monster" and game.prompt is not None:
                seen[game.prompt.key].append(game.prompt)
            play_out(game, policy, game.version + 1)
    return seen


def figure_names(game_prompt: Prompt) -> str:
    return str(game_prompt.context.get("figure", ""))


def test_every_monster_phase_question_names_its_figure() -> None:
    seen = monster_phase_prompts(range(30))
    missing = MUST_SEE - set(seen)
    assert not missing, f"these questions never came up, so the test saw too little: {missing}"
    for key, prompts in seen.items():
        if key in NOT_ABOUT_A_MONSTER or key in ORDER_QUESTIONS:
            continue
        for prompt in prompts:
            name = figure_names(prompt)
            assert name, f"{key}: the question carries no figure in its context: {prompt.text!r}"
            assert prompt.context.get("monster") in ALL_MONSTERS
            assert name in prompt.text, f"{key}: {prompt.text!r} does not name {name}"
            assert "the monster" not in prompt.text.lower()


def test_an_order_question_names_every_monster_and_what_each_starts() -> None:
    seen = monster_phase_prompts(range(30))
    orders = [p for key in ORDER_QUESTIONS for p in seen[key]]
    assert orders
    followed_on = False
    for prompt in orders:
        for option in prompt.options:
            label = str(option.data["label"])
            assert label in prompt.text, f"{prompt.text!r} does not name {label}"
            assert option.text != label and " at " in option.text, f"{option.text!r} says nothing of what happens"
        if prompt.context.get("order"):
            followed_on = True
            assert prompt.text.startswith("Order so far:") and "goes next" in prompt.text
        else:
            assert "goes first" in prompt.text
    assert followed_on, "no three-way order came up: the second question was never seen"


def test_a_defending_hero_starts_the_sentence_with_a_capital() -> None:
    seen = monster_phase_prompts(range(6))
    assert seen["defend"]
    for prompt in seen["defend"]:
        assert prompt.text[0].isupper(), prompt.text
        assert "(s)" not in prompt.text


def test_the_questions_replay_the_same() -> None:
    """The wording and contexts come from the state alone: a replayed game asks the same."""
    game = RULES.new_game({"setup": {"monsters": ALL_MONSTERS, "heroes": HEROES[:3]}})
    play_out(game, random_policy(RULES, 7), 200)
    again = Game(RULES, game.origin, game.inputs)
    assert again.prompt == game.prompt


def test_advance_and_defeat_buttons_say_what_the_roll_must_reach() -> None:
    """The Hero Phase menu names each rolled step's target number (RL-CA-2, RL-GT-5, RL-HA-6)."""
    from companion.games.horrified_core.menu import label
    from companion.games.ravenloft.simulate import context_for

    game = RULES.new_game({"setup": {"monsters": ALL_MONSTERS, "heroes": HEROES[:2]}})
    ctx = context_for(RULES, game.state)
    swap = label(ctx, {"action": "advance", "monster": "carrionette", "step": "swap", "item": "dagger"})
    prune = label(ctx, {"action": "advance", "monster": "gulthias-tree", "step": "prune", "items": ["dagger"]})
    defeat = label(ctx, {"action": "defeat", "monster": "strahd", "items": ["dagger"]})
    swap_target = RULES.monster_rules["carrionette"].advance_target("swap")
    assert swap_target is not None and swap.endswith(f"(roll {swap_target} or more)")
    assert prune.endswith(f"(roll {RULES.monster_rules['gulthias-tree'].advance_target('prune')} or more)")
    assert defeat.endswith(f"(roll {RULES.monster_rules['strahd'].defeat_target()} or more)")

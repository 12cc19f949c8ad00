"""The Horrified core: what every edition of Horrified shares (the Monster Phase, the
attack line, frenzy, items and the Haversack, villagers and rescues, Perk cards, the
common hero actions, turns and the end of the game, the state and the pack records,
the loader, the owner's overlay, positions, the policies and the action menu).

It is a library that packs use, not a pack: it never names a game or a game's monster.
An edition (a pack's rules) plugs in through its ``Edition`` (edition.py) and its
monster plug-ins (monsters.py). docs/engine.md, "The Horrified core and its editions".
"""

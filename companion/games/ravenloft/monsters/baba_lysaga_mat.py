"""Baba Lysaga's mat: her Hut as printed (RL-SU-8, RL-BL-2 .. RL-BL-4), how monsters.json
gives it, and what lies in it during a game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from companion.games.datafiles import Node, choice, count, ids, reachable, unique
from companion.games.horrified_core.packdata import Known, reference, target
from companion.games.horrified_core.state import MATS, Mat

HutKind = Literal["scarecrow", "raven", "witch"]
_HUT_KINDS: Final[dict[str, HutKind]] = {"scarecrow": "scarecrow", "raven": "raven", "witch": "witch"}
_HUT_TOKENS: Final = 5  # RL-SU-8


@dataclass(frozen=True)
class HutSpace:
    id: str
    links: tuple[str, ...]


@dataclass(frozen=True)
class HutToken:
    """A face-down Hut token: a scarecrow or a raven with a target, or Baba Lysaga herself."""

    id: str
    kind: HutKind
    target: int | None


@dataclass(frozen=True)
class BabaLysagaDetails:
    spaces: tuple[HutSpace, ...]  # the Hut on her mat, as a little graph
    gem_start: str
    door: str
    tokens: tuple[HutToken, ...]  # five, on the five non-Door spaces other than the Gem's
    defeat_target: int  # 15 (RL-BL-3)


@MATS.member
@dataclass
class HutMat(Mat):
    kind: str = "baba-lysaga"
    gem: str = ""
    face_down: list[str] = field(default_factory=list)  # Hut spaces with an unknown token
    revealed: dict[str, str] = field(default_factory=dict)  # space -> token id showing there
    removed: list[str] = field(default_factory=list)  # tokens taken out of the Hut (RL-BL-2)


def _hut_space(node: Node) -> HutSpace:
    node.fields("id", "links")
    return HutSpace(id=node.child("id").ident(), links=tuple(link.text() for link in node.child("links").elements()))


def _hut_token(node: Node) -> HutToken:
    """Scarecrows and ravens carry a target to beat; the witch has none (RL-BL-2)."""
    node.fields("id", "kind", "target")
    kind = choice(node.child("kind"), _HUT_KINDS, "hut token kind") or "scarecrow"
    target = node.child("target")
    if kind == "witch" and target.value is not None:
        target.fail("the witch's token has no target: use null")
    number = None if kind == "witch" else target.integer(1, 30)
    return HutToken(id=node.child("id").ident(), kind=kind, target=number)


def _check_hut_links(nodes: list[Node], spaces: tuple[HutSpace, ...]) -> None:
    """Links name real spaces and go both ways, so the Gem can move back too."""
    links = {space.id: set(space.links) for space in spaces}
    for node, space in zip(nodes, spaces):
        for link_node, link in zip(node.child("links").elements(), space.links):
            if link not in links:
                link_node.fail(f"no hut space called {link!r}")
            elif space.id not in links[link]:
                link_node.fail(f"{link!r} does not link back to {space.id!r}")


def _check_hut_paths(node: Node, spaces: tuple[HutSpace, ...], gem: str, door: str) -> None:
    """Her own token can never be moved (RL-BL-4): wherever it lies, a way
    round it must exist, else the game could not be won."""
    edges = [frozenset((space.id, link)) for space in spaces for link in space.links]
    if door not in reachable(gem, edges):
        node.fail(f"no path leads from {gem!r} to {door!r}")
        return
    for space in spaces:
        if space.id in (gem, door):
            continue
        around = [edge for edge in edges if space.id not in edge]
        if door not in reachable(gem, around):
            node.fail(f"a token on {space.id!r} would cut every path from {gem!r} to {door!r} (RL-BL-4)")


def _check_hut_tokens(listing: Node, tokens: tuple[HutToken, ...], spaces: tuple[HutSpace, ...]) -> None:
    """One token on every space but the Gem's and the Door (RL-SU-8), one of them hers."""
    count(listing, len(tokens), _HUT_TOKENS, "hut tokens", "RL-SU-8")
    if isinstance(listing.value, list) and len(spaces) - 2 != len(tokens):
        listing.fail(f"{len(tokens)} tokens need {len(tokens) + 2} hut spaces, found {len(spaces)}")
    witches = sum(token.kind == "witch" for token in tokens)
    if isinstance(listing.value, list) and witches != 1:
        listing.fail(f"exactly one token must be the witch herself, found {witches}")


def parse_details(node: Node, known: Known) -> BabaLysagaDetails:
    node.fields("spaces", "gem_start", "door", "tokens", "defeat_target")
    space_list = node.child("spaces")
    space_nodes = space_list.elements()
    spaces = tuple(_hut_space(space) for space in space_nodes)
    names = {space.id for space in spaces}
    unique(ids(space_nodes), (space.id for space in spaces), "hut space")
    _check_hut_links(space_nodes, spaces)
    gem, door = reference(node.child("gem_start"), names, "hut space"), reference(node.child("door"), names, "hut space")
    if gem in names and door in names and gem != door:
        _check_hut_paths(space_list, spaces, gem, door)
    token_list = node.child("tokens")
    token_nodes = token_list.elements()
    tokens = tuple(_hut_token(token) for token in token_nodes)
    unique(ids(token_nodes), (token.id for token in tokens), "hut token")
    _check_hut_tokens(token_list, tokens, spaces)
    return BabaLysagaDetails(spaces=spaces, gem_start=gem, door=door, tokens=tokens,
                             defeat_target=target(node, "defeat_target"))

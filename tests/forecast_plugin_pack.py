"""A Horrified-family pack from outside the box's tree, as ``COMPANION_EXTRA_PACKS`` loads one
(``forecast_plugin_pack:PluginRavenloftPack``): Ravenloft under an id of its own, for the test that
its forecast's cards are walked on the worker processes too (a worker makes it again by its class)."""

from __future__ import annotations

from companion.games.ravenloft.gamepack import RavenloftPack


class PluginRavenloftPack(RavenloftPack):
    id = "ravenloft-plug-in"
    title = "Ravenloft, as a plug-in"

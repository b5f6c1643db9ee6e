"""A run's rules, rebuilt from the resolved config its manifest records.

Every command that reads a run folder (analysis, verify, merge) rebuilds the rules this way,
so a folder that has travelled without its TOML file is still complete, and a manifest edited
by hand is caught by its config hash.
"""

from __future__ import annotations

from gpusim.config import ConfigError, editable_doc, parse_config

__all__ = ["ManifestError", "config_doc", "rules_from_manifest"]


class ManifestError(ValueError):
    """A manifest whose config cannot be rebuilt or does not match its hash (one line)."""


def config_doc(manifest: dict) -> dict:
    """A copy of the manifest's resolved config, ready for :func:`gpusim.config.parse_config`
    (:func:`gpusim.config.editable_doc`)."""
    return editable_doc(manifest["config"])


def rules_from_manifest(manifest: dict):
    """The run's rules, rebuilt from the resolved config in its manifest (hash-checked)."""
    try:
        rules = parse_config(config_doc(manifest), source="manifest.json",
                             default_name=manifest.get("config_name", "config"))
    except ConfigError as exc:
        raise ManifestError(f"run: its config cannot be rebuilt: {exc}") from None
    want = manifest.get("config_hash")
    if want and rules.config_hash != want:
        raise ManifestError(f"run: config hash {rules.config_hash[:12]} does not match the "
                            f"manifest's {want[:12]}")
    return rules

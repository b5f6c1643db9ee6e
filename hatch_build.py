"""Wheel build hook: put the top-level configs/ and kernels/ inside the package.

Only for a regular wheel: an editable install reads them from the checkout, so a copy in
site-packages would go stale the moment a kernel or config is edited.
"""

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SHIPPED = {"configs": "gpusim/configs", "kernels": "gpusim/kernels"}


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        if version == "standard":
            build_data["force_include"].update(SHIPPED)

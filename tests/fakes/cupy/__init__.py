"""A stand-in for CuPy on machines without a GPU, to test how gpusim reacts to broken CUDA set-ups.

Put ``tests/fakes`` first on ``PYTHONPATH`` (or in ``sys.modules["cupy"]``) and choose the
failure with ``GPUSIM_FAKE_CUPY``:

- ``nodevice`` (default): the runtime cannot reach a device, as with no GPU or no driver;
- ``nocompile``: one device, but every NVRTC compile fails;
- ``ok``: one device, compiles succeed (kernels are never run).
"""

from __future__ import annotations

import os
import types

__version__ = "14.0.0-fake"


def _mode() -> str:
    return os.environ.get("GPUSIM_FAKE_CUPY", "nodevice")


class CUDARuntimeError(RuntimeError):
    pass


class CompileException(Exception):
    pass


def _get_device_count() -> int:
    if _mode() == "nodevice":
        raise CUDARuntimeError("cudaErrorNoDevice: no CUDA-capable device is detected")
    return 1


def _get_device_properties(i: int) -> dict:
    return {"name": b"Fake GPU", "major": 9, "minor": 0, "multiProcessorCount": 132,
            "totalGlobalMem": 141 * 2**30}  # fmt: skip


runtime = types.SimpleNamespace(
    CUDARuntimeError=CUDARuntimeError,
    getDeviceCount=_get_device_count,
    getDeviceProperties=_get_device_properties,
    runtimeGetVersion=lambda: 13000,
    driverGetVersion=lambda: 13000,
)


class Device:
    def __init__(self, i: int = 0):
        self.id = i
        self.attributes = {"MultiProcessorCount": 132}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


cuda = types.SimpleNamespace(
    runtime=runtime,
    Device=Device,
    compiler=types.SimpleNamespace(CompileException=CompileException),
)


class _Function:
    ptr = 1


class RawModule:
    def __init__(self, code: str = "", options: tuple = (), **kw):
        self.code, self.options = code, options

    def compile(self):
        if _mode() == "nocompile":
            raise CompileException("gpusim.cu(1): error: NVRTC failed (fake)")

    def get_function(self, name: str) -> _Function:
        self.compile()
        return _Function()


class RawKernel(RawModule):
    def __init__(self, code: str, name: str, **kw):
        super().__init__(code)

    def __call__(self, *args):
        self.compile()
        raise CUDARuntimeError("cudaErrorNoDevice: the fake CuPy runs no kernels")


int32 = uint64 = "int32"


def zeros(n: int, dtype=None) -> list:
    return [0] * n


def show_config() -> None:
    print(f"CuPy Version : {__version__} (fake: GPUSIM_FAKE_CUPY={_mode()})")

"""The CUDA toolchain CuPy compiles with, found and exercised without a GPU.

CuPy compiles ``RawModule`` sources with NVRTC and always passes ``-I`` the CUDA runtime
headers, even for sources that include none, and fails before compiling when it cannot find
them (CuPy 14: "Failed to find CUDA headers"; CuPy 13: "Failed to auto-detect CUDA root
directory"). CuPy 14 looks them up with ``cuda.pathfinder.find_nvidia_header_directory
("cudart")``; :func:`cuda_headers` does the same, so a check here predicts CuPy's.

:func:`nvrtc_compile` drives NVRTC through ctypes (no CuPy, no GPU), which lets the tests and
``gpusim devices`` compile the kernels with the same NVRTC library and header folder that CuPy
will use on a GPU machine.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import site
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = [
    "NvrtcResult",
    "cuda_headers",
    "kernel_dir",
    "kernel_source",
    "nvrtc_compile",
    "nvrtc_library",
    "nvrtc_version",
    "one_line",
    "STDINT_PRELUDES",
    "unavailable_reason",
]

# The headers CuPy's own device headers include: if these compile, CuPy's include path works.
HEADER_PROBE = "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"


def _site_dirs() -> list[str]:
    dirs = list(site.getsitepackages()) if hasattr(site, "getsitepackages") else []
    user = site.getusersitepackages() if hasattr(site, "getusersitepackages") else None
    return [*dirs, *([user] if isinstance(user, str) else []), *sys.path]


def cuda_headers() -> str | None:
    """The CUDA runtime include folder (holding ``cuda_fp16.h``) that CuPy would use, or None.

    Order: ``cuda.pathfinder`` (CuPy 14's own lookup: pip wheels, conda, ``CUDA_HOME`` /
    ``CUDA_PATH``); else ``CUDA_PATH`` / ``CUDA_HOME``; else the pip wheels' folders
    (``nvidia/cu13/include``, ``nvidia/cuda_runtime/include``); else ``/usr/local/cuda``.
    """
    try:
        from cuda.pathfinder import find_nvidia_header_directory

        found = find_nvidia_header_directory("cudart")
        if found and (Path(found) / "cuda_fp16.h").is_file():
            return str(found)
    except Exception:  # pathfinder absent or too old: fall through to the plain lookup
        pass
    candidates = [Path(os.environ[v]) / "include" for v in ("CUDA_PATH", "CUDA_HOME")
                  if os.environ.get(v)]  # fmt: skip
    for d in _site_dirs():
        candidates += sorted(Path(d).glob("nvidia/cu[0-9]*/include"), reverse=True)
        candidates.append(Path(d) / "nvidia" / "cuda_runtime" / "include")
    candidates.append(Path("/usr/local/cuda/include"))
    for c in candidates:
        if (c / "cuda_fp16.h").is_file():
            return str(c)
    return None


@lru_cache(maxsize=1)
def nvrtc_library() -> ctypes.CDLL | None:
    """libnvrtc as CuPy's dependencies find it (``cuda.pathfinder``, else ``$GPUSIM_NVRTC_LIB``,
    the pip wheels, the system library); None when there is none."""
    candidates = [os.environ.get("GPUSIM_NVRTC_LIB", "")]
    try:
        from cuda.pathfinder import load_nvidia_dynamic_lib

        candidates.insert(0, load_nvidia_dynamic_lib("nvrtc").abs_path or "")
    except Exception:
        pass
    for d in _site_dirs():
        candidates += sorted((str(p) for p in Path(d).glob("nvidia/*/lib/libnvrtc.so*")),
                             reverse=True)  # fmt: skip
    candidates.append(ctypes.util.find_library("nvrtc") or "")
    for path in filter(None, candidates):
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    return None


def nvrtc_version() -> str | None:
    """NVRTC's version, e.g. ``"13.0"``; None when NVRTC is not installed."""
    lib = nvrtc_library()
    if lib is None:
        return None
    major, minor = ctypes.c_int(), ctypes.c_int()
    if lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)) != 0:
        return None
    return f"{major.value}.{minor.value}"


@dataclass(frozen=True)
class NvrtcResult:
    """One NVRTC compile: ``ok``, its log, the size of the cubin (``sm_XX`` targets) or the
    PTX text (``compute_XX`` targets)."""

    ok: bool
    log: str
    binary_bytes: int = 0
    ptx: str = ""


def nvrtc_compile(source: str, options: list[str] | tuple[str, ...]) -> NvrtcResult:
    """Compile ``source`` with NVRTC and ``options`` (e.g. ``-I`` the headers, ``-arch=sm_90``,
    ``-Xptxas=-v`` for ptxas' register and spill report in the log). Raises RuntimeError when
    NVRTC is not installed."""
    lib = nvrtc_library()
    if lib is None:
        raise RuntimeError("NVRTC is not installed (pip install nvidia-cuda-nvrtc)")
    prog = ctypes.c_void_p()
    rc = lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"gpusim.cu", 0, None, None)
    if rc != 0:
        return NvrtcResult(False, f"nvrtcCreateProgram failed with status {rc}")
    try:
        opts = [o.encode() for o in options]
        rc = lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        text = log.value.decode(errors="replace")
        binary, ptx = 0, ""
        if rc == 0 and any("sm_" in o for o in options):
            if lib.nvrtcGetCUBINSize(prog, ctypes.byref(size)) == 0:
                binary = size.value
        elif rc == 0 and lib.nvrtcGetPTXSize(prog, ctypes.byref(size)) == 0:
            buf = ctypes.create_string_buffer(size.value)
            if lib.nvrtcGetPTX(prog, buf) == 0:
                ptx = buf.value.decode(errors="replace")
        return NvrtcResult(rc == 0, text, binary, ptx)
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))


# --- the kernel sources and whether CuPy can run them ----------------------------------------


def kernel_dir() -> Path:
    """Folder of the CUDA sources: ``gpusim/kernels`` in a wheel, else the checkout's
    top-level ``kernels/``."""
    here = Path(__file__).resolve().parent
    for d in (here / "kernels", here.parent / "kernels"):
        if (d / "casino_holdem.cu").is_file():
            return d
    raise FileNotFoundError("the CUDA kernel sources (kernels/*.cu) are not installed")


_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]\s*$', re.MULTILINE)

# NVRTC ships no C library headers; the kernels need only these fixed-width types. "cupy" is the
# fallback: CuPy >= 13.3 provides them (and std:: coverage) through its own workaround header.
STDINT_PRELUDES = {
    "typedefs": """\
#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <stdint.h>
#endif
""",
    "cupy": "#include <cupy/cuda_workaround.h>\n",
}


def kernel_source(game: str, stdint: str = "typedefs") -> str:
    """``kernels/<game>.cu`` with its headers inlined (each once) and ``<stdint.h>`` replaced
    by a prelude (``stdint``: "typedefs" or "cupy", see ``STDINT_PRELUDES``), for NVRTC."""
    root = kernel_dir()
    seen: set[str] = set()

    def expand(path: Path) -> str:
        def sub(m: re.Match) -> str:
            kind, name = m.group(1), m.group(2)
            if kind == "<":
                if name not in ("stdint.h", "cstdint"):
                    raise ValueError(f"{path.name}: #include <{name}> is not available to NVRTC")
                if "<stdint>" in seen:
                    return ""
                seen.add("<stdint>")
                return STDINT_PRELUDES[stdint]
            if name in seen:
                return ""
            seen.add(name)
            return expand(root / name)

        return _INCLUDE.sub(sub, path.read_text(encoding="utf-8"))

    return expand(root / f"{game}.cu")



_REASON: list = []  # memo of unavailable_reason(): [reason] once computed


def unavailable_reason() -> str | None:
    """None when the cupy backend can run here; else one line saying why not.

    Checked in order: CuPy imports; its CUDA runtime reaches the driver and counts devices
    (a driver too old for the installed ``cupy-cuda1Xx`` fails here); at least one device; the
    CUDA headers that CuPy passes to NVRTC exist. Computed once per process; the exception
    caught, if any, is named in the line.
    """
    if not _REASON:
        _REASON.append(_probe())
    return _REASON[0]


def _probe() -> str | None:
    try:
        import cupy
    except ModuleNotFoundError as exc:
        if exc.name not in (None, "cupy"):
            return f"CuPy failed to import: {one_line(exc)}"
        return ("CuPy is not installed (pip install 'gpusim[cuda13]' or 'gpusim[cuda12]' on a "
                "machine with an NVIDIA GPU)")  # fmt: skip
    except Exception as exc:
        return f"CuPy failed to import: {one_line(exc)}"
    version = getattr(cupy, "__version__", "?")
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as exc:
        return f"CuPy {version} cannot use the CUDA driver: {one_line(exc)}"
    if count <= 0:
        return f"CuPy {version} sees no CUDA device"
    headers = cuda_headers()
    if headers is None:
        return (f"CuPy {version} sees {count} CUDA device(s) but no CUDA runtime headers, which "
                "its NVRTC compile needs: pip install 'gpusim[cuda13]' (or [cuda12]), or set "
                "CUDA_PATH to a CUDA toolkit")  # fmt: skip
    _point_cupy13_at(headers, version)
    return None


def _point_cupy13_at(headers: str, version: str) -> None:
    # CuPy 13 finds the headers only through CUDA_PATH (or a wheel of NVRTC's exact version);
    # the folder above the headers found here serves as CUDA_PATH. CuPy 14 finds them itself.
    if version.split(".")[0].isdigit() and int(version.split(".")[0]) < 14:
        if not (os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME")):
            os.environ["CUDA_PATH"] = str(Path(headers).parent)


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "(no message)"
    text = text if len(text) <= 300 else text[:297] + "..."
    return f"{type(exc).__name__}: {text}"

#!/usr/bin/env bash
# Fetch and build a standalone Fairy-Stockfish binary to play chuhan against.
#
# Fairy-Stockfish is GPL-3 licensed (https://github.com/fairy-stockfish/Fairy-Stockfish).
# None of its code is kept in this repository: this script downloads the source
# distribution of its Python binding, pyffish, from PyPI with pip (it carries the
# engine's C++ sources under src/), and compiles all of them except the Python and
# JavaScript bindings (pyffish.cpp, ffishjs.cpp) into a UCI/UCCI binary.
#
# Evaluation: the build has no embedded network (-DNNUE_EMBEDDING_OFF) and no network
# file is loaded, so for xiangqi Fairy-Stockfish plays with its classical, hand-written
# evaluation. Published strengths of Fairy-Stockfish in xiangqi are usually with NNUE,
# which is considerably stronger; a result against this build is not one against that.
# To play with a network, download a xiangqi .nnue file yourself and add
# option.EvalFile=/path/to/xiangqi.nnue to the engine's words below.
#
# Protocol: give the engine proto=ucci. After `ucci`, Fairy-Stockfish selects the xiangqi
# variant itself and writes moves with ranks 0-9 (h2e2), as chuhan does; after `uci` it
# plays chess unless UCI_Variant is set, and writes xiangqi ranks 1-10 (h3e3), which
# chuhan match does not read. It answers `setoption newgame` with "No such option"; that
# is harmless, as the runner starts a fresh process for every game.
#
# Usage: scripts/fairy_stockfish.sh [CACHE_DIR]
#   CACHE_DIR defaults to target/fairy-stockfish (ignored by git). Environment:
#   PYFFISH_VERSION (default 0.0.90), JOBS (parallel compiles, default 1), CXX (default g++).
# Prints the path of the binary on its last line. Then, for example:
#   target/release/chuhan match --engine name=chuhan cmd=target/release/chuhan \
#       --engine name=fsf cmd=target/fairy-stockfish/fairy-stockfish proto=ucci ...
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${1:-$root/target/fairy-stockfish}"
version="${PYFFISH_VERSION:-0.0.90}"
jobs="${JOBS:-1}"
cxx="${CXX:-g++}"
mkdir -p "$cache"
cache="$(cd "$cache" && pwd)"
bin="$cache/fairy-stockfish"

src_dir="$cache/pyffish-$version/src"
if [[ ! -d "$src_dir" ]]; then
    sdist="$(ls "$cache"/pyffish-"$version".tar.gz 2>/dev/null || true)"
    if [[ -z "$sdist" ]]; then
        echo "downloading pyffish $version (source distribution) ..." >&2
        python3 -m pip download "pyffish==$version" --no-binary :all: --no-deps -d "$cache" >&2
        sdist="$cache/pyffish-$version.tar.gz"
    fi
    tar -xzf "$sdist" -C "$cache"
fi

flags=(-O3 -std=c++17 -DNDEBUG -DIS_64BIT -DLARGEBOARDS -DALLVARS -DPRECOMPUTED_MAGICS
       -DNNUE_EMBEDDING_OFF -pthread -w)
if grep -qw popcnt /proc/cpuinfo 2>/dev/null; then
    flags+=(-DUSE_POPCNT -mpopcnt)
fi

if [[ -x "$bin" && "$bin" -nt "$src_dir" ]]; then
    echo "$bin"
    exit 0
fi

obj_dir="$cache/obj-$version"
mkdir -p "$obj_dir"
mapfile -t sources < <(cd "$src_dir" && ls *.cpp syzygy/*.cpp nnue/*.cpp nnue/features/*.cpp 2>/dev/null \
    | grep -v -e '^pyffish\.cpp$' -e '^ffishjs\.cpp$')
echo "compiling ${#sources[@]} files with $jobs job(s) ..." >&2
export FSF_CXX="$cxx" FSF_SRC="$src_dir" FSF_OBJ="$obj_dir" FSF_FLAGS="${flags[*]}"
compile_one() {
    local o="$FSF_OBJ/${1//\//_}.o"
    [[ -f "$o" ]] && return 0
    # shellcheck disable=SC2086
    $FSF_CXX $FSF_FLAGS -c "$FSF_SRC/$1" -o "$o.tmp" && mv "$o.tmp" "$o"
}
export -f compile_one
printf '%s\n' "${sources[@]}" | xargs -P "$jobs" -I{} bash -c 'compile_one "$1"' _ {}
objects=()
for s in "${sources[@]}"; do
    objects+=("$obj_dir/${s//\//_}.o")
done
"$cxx" "${flags[@]}" "${objects[@]}" -o "$bin.tmp"
mv "$bin.tmp" "$bin"
echo "$bin"

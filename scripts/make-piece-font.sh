#!/usr/bin/env bash
# Remakes crates/gui/static/pieces.woff2: Noto Serif JP Bold (SIL Open Font License 1.1, the
# licence beside it in crates/gui/static/OFL.txt), cut to the characters the board page
# draws: the pieces, the moves of the record and the title. The whole font is megabytes;
# this cut is a few KB, so the page reads on machines without CJK fonts.
# Usage: scripts/make-piece-font.sh   (needs npm and python3; installs fonttools in a venv)
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${NOTO_VERSION:-5.3.0}
# Pieces and promoted pieces; the moves of the record and its numbers; the words of the KIF
# that gogo writes (players, endings, review comments) and of the headers other programs
# write, so that a record shown in the page's text boxes reads too; the title.
CHARS="歩銀金角飛玉王と全馬龍杏竜成不打同一二三四五六七八九１２３４５６７８９０▲△☖☗：　・\
けしちでとなのまみれきり先後手番持駒指数消費時間投了詰千日中断切負反則勝率評価値最善悪疑問大終局\
合割平将棋開始終了棋戦場所表題秒読対局者下上入宣言引分香桂変化"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack -q "@fontsource/noto-serif-jp@$VERSION" >/dev/null && tar xzf ./*.tgz)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q fonttools==4.68.0 brotli==1.2.1
"$work/venv/bin/python" - "$work/package" "$CHARS" crates/gui/static/pieces.woff2 <<'PY'
import re, sys
from fontTools import subset
from fontTools.merge import Merger
from fontTools.ttLib import TTFont

package, out = sys.argv[1], sys.argv[3]
chars = "".join(dict.fromkeys(c for c in sys.argv[2] if not c.isspace() or c == "\u3000"))
css = open(f"{package}/700.css", encoding="utf-8").read()
# Fontsource cuts the font into numbered files by unicode-range: subset each file that holds
# some of the characters, then merge the pieces into one font.
parts, found = [], set()
for name in re.findall(r"url\(\./files/(noto-serif-jp-[\w-]+?-700-normal)\.woff2\)", css):
    font = TTFont(f"{package}/files/{name}.woff2")
    mine = "".join(c for c in chars if ord(c) in font.getBestCmap() and c not in found)
    if not mine:
        continue
    found.update(mine)
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=mine)
    subsetter.subset(font)
    font.flavor = None
    path = f"{package}/part-{len(parts)}.ttf"
    font.save(path)
    parts.append(path)
missing = [c for c in chars if c not in found]
if missing:
    sys.exit(f"not in the font: {''.join(missing)}")
merged = Merger().merge(parts)
merged.flavor = "woff2"
merged.save(out)
print(f"{out}: {len(chars)} characters from {len(parts)} files")
PY
cp "$work/package/LICENSE" crates/gui/static/OFL.txt
ls -l crates/gui/static/pieces.woff2

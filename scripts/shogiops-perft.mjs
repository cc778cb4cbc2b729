// Perft with npm `shogiops` (lishogi's rules library), an independent move generator that,
// like gogo, excludes pawn drops that give mate.
// Input on stdin: one "<sfen>\t<depth>" per line. Output: one count per line, same order.
// ESM ignores NODE_PATH: scripts/gen-perft-data.sh copies this file next to the node_modules
// that holds shogiops and runs it there.
import { createInterface } from 'node:readline';
import { parseSfen } from 'shogiops/sfen';
import { perft } from 'shogiops/debug';

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const [sfen, depth] = line.split('\t');
  const pos = parseSfen('minishogi', sfen, false).unwrap();
  console.log(perft(pos, Number(depth)));
}

#!/usr/bin/env python3
"""Data for the evaluation tuner (scripts/tune.sh).

  tune_data.py openings N OUT          N random openings of 4-8 plies (minishogilib moves)
  tune_data.py extract OUT JSONL...    every position after the opening of arena games, as
                                       `sfen START moves ...<TAB>result for Sente`
  tune_data.py label IN OUT GO         appends fairy-stockfish's score for Sente after `GO`
                                       (e.g. "go depth 6"); mate scores become +-3000
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def openings(n, out):
    import minishogilib
    random.seed(7)
    seen, lines = set(), []
    while len(lines) < n:
        pos = minishogilib.Position()
        pos.set_start_position()
        moves = []
        for _ in range(random.choice([4, 5, 6, 7, 8])):
            legal = pos.generate_moves()
            if not legal:
                break
            mv = random.choice(legal)
            moves.append(mv.sfen())
            pos.do_move(mv)
        text = ' '.join(moves)
        if len(moves) >= 4 and text not in seen:
            seen.add(text)
            lines.append('startpos moves ' + text)
    with open(out, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def extract(out, paths):
    n = 0
    with open(out, 'w') as f:
        for path in paths:
            for line in open(path):
                g = json.loads(line)
                result = {'1-0': 1.0, '0-1': 0.0}.get(g['result'], 0.5)
                moves = g['moves']
                for i in range(g.get('opening_moves', 0), len(moves)):
                    tail = (' moves ' + ' '.join(moves[:i])) if i else ''
                    f.write(f"sfen {g['start']}{tail}\t{result}\n")
                    n += 1
    print(f'{n} positions', file=sys.stderr)


def label(src, out, go):
    from usi_probe import Usi
    engine = Usi([os.environ.get('FAIRY', 'fairy-stockfish')],
                 [('UCI_Variant', 'minishogi'), ('Hash', '16')])
    with open(out, 'w') as f:
        for line in open(src):
            pos, result = line.rstrip('\n').split('\t')[:2]
            engine.send('position ' + pos)
            engine.send(go)
            score = None
            for reply in engine.wait('bestmove'):
                words = reply.split()
                if 'score' in words:
                    k = words.index('score')
                    score = (words[k + 1], int(words[k + 2]))
            if score is None or (score[0] == 'cp' and abs(score[1]) > 5000):
                continue  # fairy-stockfish 11.1 now and then prints a garbage score
            value = score[1] if score[0] == 'cp' else (3000 if score[1] > 0 else -3000)
            words = pos.split()
            sente_to_move = words[2] == 'b'
            if 'moves' in words and (len(words) - words.index('moves') - 1) % 2 == 1:
                sente_to_move = not sente_to_move
            f.write(f"{pos}\t{result}\t{value if sente_to_move else -value}\n")
    engine.quit()


if __name__ == '__main__':
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'openings':
        openings(int(sys.argv[2]), sys.argv[3])
    elif cmd == 'extract':
        extract(sys.argv[2], sys.argv[3:])
    elif cmd == 'label':
        label(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)

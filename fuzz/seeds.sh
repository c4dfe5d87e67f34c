#!/usr/bin/env bash
# Writes small seed corpora into fuzz/corpus/<target>/ (git-ignored) from the repo's data.
set -euo pipefail
cd "$(dirname "$0")"
suite=../tests/data/perftsuite.epd
mkdir -p corpus/fen corpus/san corpus/pgn corpus/uci_command

# fen: every perft-suite FEN, plus short forms and near misses.
i=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  printf '%s' "${line%% ;*}" > "corpus/fen/suite-$i"
  i=$((i + 1))
done < "$suite"
printf '%s' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -' > corpus/fen/short
printf '%s' 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1' > corpus/fen/ep
printf '%s' 'R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1' > corpus/fen/queens

# san: a position selector (two bytes) followed by a SAN move.
n=0
for san in e4 Nf3 O-O O-O-O 0-0 exd6 'exd6 e.p.' e8=Q e8Q 'bxa8=N+' 'Qh4#' Nbd7 R1a3 Qh4xe1 Kxf2 'a1=Q' 'Nf3!?' '--' P@e4; do
  {
    printf "\\x$(printf %02x $((n % 128)))"
    printf "\\x$(printf %02x $((n * 7 % 64)))"
    printf '%s' "$san"
  } > "corpus/san/seed-$n"
  n=$((n + 1))
done

# pgn: a few small games and headers.
cat > corpus/pgn/game <<'PGN'
[Event "Seed"]
[Site "?"]
[Date "2024.01.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {comment} 4. Ba4 Nf6 5. O-O Be7 (5... b5 6. Bb3) 6. Re1 $1 b5 7. Bb3 d6 1-0
PGN
cat > corpus/pgn/fen <<'PGN'
[FEN "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"]
[SetUp "1"]
[Result "*"]

1. b8=Q+ Kd7 *
PGN
printf '1. f3 e5 2. g4 Qh4# 0-1\n\n1. d4 d5 1/2-1/2\n' > corpus/pgn/two

# uci_command: one command per line.
printf 'uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5 g1f3\ngo wtime 1000 btime 1000 winc 10 binc 10\n' > corpus/uci_command/session
printf 'position fen 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 moves b7b8q e8d7\ngo perft 2\n' > corpus/uci_command/fen
printf 'setoption name Hash value 16\ngo depth 5 searchmoves e2e4 d2d4\ngo infinite\nstop\nquit\n' > corpus/uci_command/options
echo "seeds: $(ls corpus/fen | wc -l) fen, $(ls corpus/san | wc -l) san, $(ls corpus/pgn | wc -l) pgn, $(ls corpus/uci_command | wc -l) uci_command"

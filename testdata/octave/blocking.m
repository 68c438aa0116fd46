% blocking.m — reference solutions of closed single-class networks with finite capacities
% (blocking after service) by GNU Octave's queueing package 1.2.7: qncsmvablo(N, S, M, P),
% Akyildiz's MVABLO (IEEE TSE 14(4), 1988), an approximation. The five networks of the
% package's own tests (Akyildiz's examples) come first, then random rings and central-server
% networks with capacities 2–6. Octave's MVABLO gives residence times per visit R, station
% throughputs X (visits relative to station 1), utilizations U and queue lengths Q.
%
% Run from this directory:   octave-cli --no-gui blocking.m
% Writes blocking.json. CI never runs this.
pkg load queueing;
rand("seed", 20261122);
cases = {};
% settles(N, S, M, P): whether MVABLO's capacity corrections settle within 1000·K rounds at
% every population (qncsmvablo's do-until loop has no limit and runs forever otherwise: the
% repeated blocking-time additions can chase a full ring for ever). The loop is the
% package's, with a round counter; the Go solver uses the same limit (ErrNotConverged).
function ok = settles(K, S, M, P)
  N = length(S); kp = zeros(1, N); BT = zeros(1, N); z = ones(1, N); v = qncsvisits(P);
  for k = 1:K
    rounds = 0;
    do
      t = S .* (z + kp) + BT; lambda = k / dot(v, t); kb = t .* v * lambda;
      if any(kb > M)
        i = find(kb > M, 1); z(i) = 0; BT = BT + S(i) * (v .* P(:, i)') / v(i);
      end
      rounds++;
      if rounds > 1000 * N, ok = false; return; end
    until all(kb <= M)
    kp = kb;
  end
  ok = true;
endfunction
function c = mk(name, N, S, M, P)
  c = struct("name", name, "N", N, "S", S, "M", M, "P", P, "settles", settles(N, S, M, P));
  if c.settles
    [c.U c.R c.Q c.X] = qncsmvablo(N, S, M, P);
  end
endfunction
ring = [0 1 0; 0 0 1; 1 0 0];
cs = [0 0.5 0.5; 1 0 0; 1 0 0];
cases{end+1} = mk("akyildiz-v", 27, [1 1/2 1/3], [12 10 14], ring);
cases{end+1} = mk("akyildiz-ex2-10", 10, [1.5 2 1], [4 5 5], ring);
cases{end+1} = mk("akyildiz-ex2-12", 12, [1.5 2 1], [4 5 5], ring);
cases{end+1} = mk("akyildiz-ex3-10", 10, [0.2 1.2 1.4], [8 7 6], cs);
cases{end+1} = mk("akyildiz-ex3-12", 12, [0.2 1.2 1.4], [8 7 6], cs);
for i = 1:40
  K = 2 + mod(i, 3);
  if mod(i, 2) == 0
    % ring, some stations with a self-loop (never blocks: the job leaves and re-enters)
    P = zeros(K);
    for k = 1:K
      P(k, 1 + mod(k, K)) = 1;
      if rand() < 0.5
        P(k, k) = rand();
      end
      P(k, :) = P(k, :) / sum(P(k, :));
    end
  else
    % central server: station 1 sends to the others (and itself), they return
    P = zeros(K); P(1, :) = 0.1 + rand(1, K); P(1, :) = P(1, :) / sum(P(1, :));
    P(2:K, 1) = 1;
  end
  P = round(P * 1000) / 1000;
  for k = 1:K   % exact row sums: the largest entry takes the rounding
    [~, j] = max(P(k, :)); P(k, j) = 0; P(k, j) = 1 - sum(P(k, :));
  end
  S = round(100 * (0.2 + rand(1, K))) / 100;
  M = 2 + floor(5 * rand(1, K));
  % below the smallest cycle's capacity, so that no cycle of full stations can deadlock
  % (the ring's one cycle: all stations; the central server's: station 1 and one other)
  if mod(i, 2) == 0, top = sum(M); else, top = M(1) + min(M(2:K)); end
  N = 2 + floor((top - 2) * rand());
  if N >= top, N = top - 1; end
  cases{end+1} = mk(sprintf("random-%02d", i), N, S, M, P);
end
write_cases("blocking.json", cases);

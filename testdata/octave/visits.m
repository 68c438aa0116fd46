% visits.m — reference visit counts from routing matrices with GNU Octave's queueing package.
%
% Run from this directory:   octave-cli --no-gui visits.m
% Writes visits.json: closed cases (qncsvisits, then qncsmva on the visits) and open cases
% (qnosvisits, then qnos). Indices in r are Octave's (1-based). CI never runs this.
pkg load queueing;
rand("seed", 20261123);
cases = {};

% a random routing matrix: each row spreads over 1–3 random stations; closed rows sum to 1,
% open rows to 1 − exit (exit > 0 on at least the first row)
function P = randP(K, open)
  P = zeros(K, K);
  for i = 1:K
    n = 1 + floor(3*rand());
    j = randperm(K)(1:min(n, K));
    w = round(100*(0.1 + rand(1, numel(j))))/100;
    P(i, j) = w / sum(w);
    if i < K, P(i, i+1) += 0.3; end      % a ring keeps it irreducible
    if i == K, P(i, 1) += 0.3; end
    P(i, :) = P(i, :) / sum(P(i, :));
    if open
      ex = 0.2 + 0.2*(i == 1);
      P(i, :) = (1 - ex) * P(i, :);
    end
  end
endfunction

Ks = [2 3 4 5 6 8 3 5];
for i = 1:numel(Ks)
  K = Ks(i);
  P = randP(K, false);
  r = 1 + mod(i, K);
  V = qncsvisits(P, r);
  S = round(100*(0.02 + 0.3*rand(1, K)))/100;
  N = [1 4 10 25 3 12 50 7](i);
  Z = mod(i, 2) * 2.5;
  m = ones(1, K);
  if K >= 4, m(K) = -1; end
  c = struct("name", sprintf("closed-%02d", i), "func", "qncsvisits+qncsmva", "P", P, "r", r, "V", V, "S", S, "N", N, "Z", Z, "m", m);
  [c.U c.R c.Q c.X] = qncsmva(N, S, V, m, Z);
  cases{end+1} = c;
end

for i = 1:6
  K = [2 3 4 5 6 7](i);
  P = randP(K, true);
  a = zeros(1, K); a(1) = 0.6; a(K) = a(K) + 0.4;
  lambda = [0.5 0.8 1 1.2 0.3 0.6](i);
  V = qnosvisits(P, lambda * a);
  S = round(100*(0.02 + 0.2*rand(1, K)))/100;
  while max(lambda * S .* V) >= 0.95, S = S / 2; end
  c = struct("name", sprintf("open-%02d", i), "func", "qnosvisits+qnos", "P", P, "a", a, "lambda", lambda, "V", V, "S", S);
  [c.U c.R c.Q c.X] = qnos(lambda, S, V);
  cases{end+1} = c;
end

write_cases("visits.json", cases);

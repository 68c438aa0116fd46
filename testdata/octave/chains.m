% chains.m — reference solutions of closed networks with class switching (routing chains)
% with GNU Octave's queueing package 1.2.7: qncmvisits(P, r) for the visits and chains, and
% qncmmva(N, S, P, r, m) (single-server and delay centres only: Octave's class-switching
% MVA supports no others) for the performance indices.
%
% Run from this directory:   octave-cli --no-gui chains.m
% Writes chains.json. CI never runs this.
pkg load queueing;
rand("seed", 20261124);
cases = {};

% groups{i}: classes of each chain (1-based); K stations; N per class
groups = {{[1 2]}, {[1 2 3]}, {[1 2], [3]}, {[1 3], [2]}, {[1 2]}, {[1 2 3]}, {[1], [2 3]}, {[1 2]}};
Ks = [2 3 3 4 3 4 3 5];
Ns = {[2 1], [3 2 1], [4 0 3], [2 3 2], [10 5], [5 5 5], [6 2 2], [1 0]};
for i = 1:numel(groups)
  g = groups{i}; K = Ks(i); N = Ns{i}; C = numel(N);
  P = zeros(C, K, C, K);
  for q = 1:numel(g)
    cls = g{q};
    for c = cls
      for k = 1:K
        % spread over 1–3 random (class, station) targets in the chain, plus a ring edge
        n = 1 + floor(3*rand());
        for t = 1:n
          d = cls(1 + floor(numel(cls)*rand())); j = 1 + floor(K*rand());
          P(c, k, d, j) += round(100*(0.1 + rand()))/100;
        end
        nc = cls(1 + mod(find(cls == c), numel(cls)));   % next class of the chain
        P(c, k, nc, 1 + mod(k, K)) += 0.3;
        P(c, k, :, :) = P(c, k, :, :) / sum(P(c, k, :, :)(:));
      end
    end
  end
  r = ones(1, C); if mod(i, 2) == 0, r = 1 + mod(0:C-1, K); end
  S = round(100*(0.05 + rand(C, K)))/100;
  m = ones(1, K); if K >= 3, m(K) = -1; end
  [V ch] = qncmvisits(P, r);
  c = struct("name", sprintf("chains-%02d", i), "P", P, "r", r, "V", V, "ch", ch, "N", N, "S", S, "m", m);
  [c.U c.R c.Q c.X] = qncmmva(N, S, P, r, m);
  cases{end+1} = c;
end

write_cases("chains.json", cases);

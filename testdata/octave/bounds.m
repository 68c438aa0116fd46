% bounds.m — reference values of the bounds of GNU Octave's queueing package (1.2.7) for
% ../../qn/bounds_octave_test.go: qncmaba, qncmbsb (multi-class closed), qncspb, qncsgb
% (single-class closed), qnosaba, qnosbsb (single-class open), and qncmmva/qnos exact
% answers for the cases where 1.2.7's bounds are not bounds (see qn/bounds_*.go).
%
% Run from this directory:   octave-cli --no-gui bounds.m
% Outputs per case: Xl, Xu, Rl, Ru (qncsgb's R outputs are stored in the order Octave
% returns them: its third output is named R_upper but holds the lower bound).
% CI never runs this: the Go tests read bounds.json.
pkg load queueing;
rand("seed", 20261123);
cases = {};

function c = mk(name, fn, N, lambda, S, V, Z)
  c = struct("name", name, "func", fn, "N", N, "lambda", lambda, "S", S, "V", V, "Z", Z);
endfunction

% multi-class closed, single-server queues only, Z = 0 (qncmbsb needs Z = 0)
mc = {[3 2], [10 5], [4 3 2], [20 1], [6 6 6], [1 1]};
for i = 1:numel(mc)
  N = mc{i}; C = numel(N); K = 2 + mod(i, 3);
  S = round(100*(0.05 + rand(C,K)))/100;
  V = round(10*(0.5 + 2*rand(C,K)))/10;
  Z = zeros(1,C);
  c = mk(sprintf("qncmaba-%02d", i), "qncmaba", N, 0, S, V, Z);
  [c.Xl c.Xu c.Rl c.Ru] = qncmaba(N, S, V, ones(1,K), Z);
  [~, c.Rexact] = qncmmva(N, S, V);           % per-visit R, C x K
  cases{end+1} = c;
  c = mk(sprintf("qncmbsb-%02d", i), "qncmbsb", N, 0, S, V, Z);
  [c.Xl c.Xu c.Rl c.Ru] = qncmbsb(N, S, V);
  cases{end+1} = c;
end
% qncmaba with think time
c = mk("qncmaba-think", "qncmaba", [4 2], 0, [0.2 0.3; 0.4 0.1], [1 1; 1 1], [2 1]);
[c.Xl c.Xu c.Rl c.Ru] = qncmaba(c.N, c.S, c.V, [1 1], c.Z);
cases{end+1} = c;
% the case where qncmaba's upper R is below the exact answer: one station, D = (1, 1e-9)
c = mk("qncmaba-counter", "qncmaba", [1 1], 0, [1; 1e-9], [1; 1], [0 0]);
[c.Xl c.Xu c.Rl c.Ru] = qncmaba(c.N, c.S, c.V);
[~, c.Rexact] = qncmmva(c.N, c.S, c.V);
cases{end+1} = c;

% single-class closed: proportional and geometric bounds
Ks = [2 3 4 5 6 3 8];
Ns = [1 5 20 50 10 100 30];
Zs = [0 0 2 0 5 1 0];
for i = 1:numel(Ks)
  K = Ks(i); N = Ns(i); Z = Zs(i);
  S = round(100*(0.05 + rand(1,K)))/100;
  V = round(10*(0.5 + 2*rand(1,K)))/10;
  c = mk(sprintf("qncspb-%02d", i), "qncspb", N, 0, S, V, Z);
  [c.Xl c.Xu c.Rl c.Ru] = qncspb(N, S, V, ones(1,K), Z);
  cases{end+1} = c;
  c = mk(sprintf("qncsgb-%02d", i), "qncsgb", N, 0, S, V, Z);
  [c.Xl c.Xu c.Rl c.Ru] = qncsgb(N, S, V, ones(1,K), Z);
  cases{end+1} = c;
end

% single-class open
ol = {[0.5, 0.3 0.5 0.2], [1, 0.2 0.3], [2, 0.1 0.2 0.3 0.05], [1, 0.5 0.5]};
for i = 1:numel(ol)
  v = ol{i}; lambda = v(1); S = v(2:end); V = ones(size(S));
  c = mk(sprintf("qnosaba-%02d", i), "qnosaba", 0, lambda, S, V, 0);
  [c.Xl c.Xu c.Rl c.Ru] = qnosaba(lambda, S, V);
  if isinf(c.Ru), c.Ru = -1; end               % JSON has no Inf: -1 stands for +Inf
  cases{end+1} = c;
  c = mk(sprintf("qnosbsb-%02d", i), "qnosbsb", 0, lambda, S, V, 0);
  [c.Xl c.Xu c.Rl c.Ru] = qnosbsb(lambda, S, V);
  if isinf(c.Rl), c.Rl = -1; end
  [~, Rk] = qnos(lambda, S, V);
  c.Rexact = sum(Rk .* V);
  cases{end+1} = c;
end
write_cases("bounds.json", cases);

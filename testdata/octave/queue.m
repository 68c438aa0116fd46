% queue.m — reference values of the single-queue formulas and Erlang functions of GNU
% Octave's queueing package (1.2.7), for ../../queue/octave_test.go.
%
% Run from this directory:   octave-cli --no-gui queue.m
% Writes queue.json: one object per case with the function called, its inputs and outputs
% (Octave's names: U, R, Q, X, p0 and pm/pK where the function returns them).
% CI never runs this: the Go tests read queue.json.
pkg load queueing;
cases = {};

function c = mk(name, fn, lambda, mu, m, K, x2nd)
  c = struct("name", name, "func", fn, "lambda", lambda, "mu", mu, "m", m, "K", K, "x2nd", x2nd);
endfunction

% M/M/1
lm = [0.1 1; 0.5 1; 0.9 1; 0.99 1; 3 7.5; 1e-6 2; 999 1000];
for i = 1:rows(lm)
  c = mk(sprintf("qsmm1-%02d", i), "qsmm1", lm(i,1), lm(i,2), 1, 0, 0);
  [c.U c.R c.Q c.X c.p0] = qsmm1(lm(i,1), lm(i,2));
  cases{end+1} = c;
end
% M/M/m (also large m, near saturation)
lmm = [0.5 1 2; 1.9 1 2; 3 1.2 4; 10 0.5 25; 90 1 100; 99 1 100; 450 1 500; 7 2 4];
for i = 1:rows(lmm)
  c = mk(sprintf("qsmmm-%02d", i), "qsmmm", lmm(i,1), lmm(i,2), lmm(i,3), 0, 0);
  [c.U c.R c.Q c.X c.p0 c.pm] = qsmmm(lmm(i,1), lmm(i,2), lmm(i,3));
  cases{end+1} = c;
end
% M/M/inf
li = [0.5 1; 10 0.1; 3 3];
for i = 1:rows(li)
  c = mk(sprintf("qsmminf-%02d", i), "qsmminf", li(i,1), li(i,2), 0, 0, 0);
  [c.U c.R c.Q c.X c.p0] = qsmminf(li(i,1), li(i,2));
  cases{end+1} = c;
end
% M/M/1/K (rho < 1, = 1 excluded by Octave's formula, > 1)
lk = [0.5 1 1; 0.5 1 10; 0.9 0.75 10; 2 1 5; 0.8 0.97 40; 5 1 3];
for i = 1:rows(lk)
  c = mk(sprintf("qsmm1k-%02d", i), "qsmm1k", lk(i,1), lk(i,2), 1, lk(i,3), 0);
  [c.U c.R c.Q c.X c.p0 c.pK] = qsmm1k(lk(i,1), lk(i,2), lk(i,3));
  cases{end+1} = c;
end
% M/M/m/K (incl. K = m, the loss system)
lmk = [40 30 3 7; 50 10 4 6; 3 2 2 5; 0.8 0.85 3 5; 5 1 5 5; 20 1 10 30; 0.2 0.25 5 20];
for i = 1:rows(lmk)
  c = mk(sprintf("qsmmmk-%02d", i), "qsmmmk", lmk(i,1), lmk(i,2), lmk(i,3), lmk(i,4), 0);
  [c.U c.R c.Q c.X c.p0 c.pK] = qsmmmk(lmk(i,1), lmk(i,2), lmk(i,3), lmk(i,4));
  cases{end+1} = c;
end
% M/G/1: xavg = 1/mu, x2nd = xavg^2 (1 + scv)
lg = [0.5 1 1; 0.5 1 0; 0.8 2 3.5; 0.3 0.5 0.25];
for i = 1:rows(lg)
  xavg = 1/lg(i,2); x2nd = xavg^2*(1 + lg(i,3));
  c = mk(sprintf("qsmg1-%02d", i), "qsmg1", lg(i,1), lg(i,2), 1, 0, x2nd);
  [c.U c.R c.Q c.X c.p0] = qsmg1(lg(i,1), xavg, x2nd);
  cases{end+1} = c;
end
% heterogeneous M/M/m (Octave's own test case first)
hm = {[73, 10 15 20 20 25], [1, 1 2], [30, 5 10 15 20], [2.5, 3 3 3]};
for i = 1:numel(hm)
  v = hm{i};
  c = mk(sprintf("qsammm-%02d", i), "qsammm", v(1), v(2:end), numel(v) - 1, 0, 0);
  [c.U c.R c.Q c.X c.p0 c.pm] = qsammm(v(1), v(2:end));
  cases{end+1} = c;
end
% Erlang B and C, up to large m
am = [1 1; 5 10; 9.5 10; 50 60; 100 120; 900 1000; 0.01 3; 20 2];
for i = 1:rows(am)
  c = mk(sprintf("erlangb-%02d", i), "erlangb", am(i,1), 1, am(i,2), 0, 0);
  c.B = erlangb(am(i,1), am(i,2));
  cases{end+1} = c;
  if am(i,1) < am(i,2)
    c = mk(sprintf("erlangc-%02d", i), "erlangc", am(i,1), 1, am(i,2), 0, 0);
    c.C = erlangc(am(i,1), am(i,2));
    cases{end+1} = c;
  end
end
write_cases("queue.json", cases);

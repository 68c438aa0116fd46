% jmva.m — exact solutions of the JMVA example files in ../../examples/jmt/ with GNU
% Octave's queueing package (1.2.7), for ../../jmva/example_test.go.
%
% Run from this directory:   octave-cli --no-gui jmva.m
% Writes jmva.json. Octave's conventions: S per visit, V visits, m(k) = -1 a delay centre;
% outputs U, R (per visit), Q, X (station throughput), C x K.
% CI never runs this: the Go tests read jmva.json.
pkg load queueing;
cases = {};

% central.jmva: classes (interactive, batch), stations (terminals, cpu, disk1, disk2)
N = [12 4];
S = [8.0 0.005 0.03 0.027; 0.0 0.01 0.025 0.04];
V = [1.0 121 70 50; 0.0 60 30 29];
m = [-1 1 1 1];
c = struct("name", "central", "func", "qncmmva", "N", N, "S", S, "V", V);
[c.U c.R c.Q c.X] = qncmmva(N, S, V, m);
cases{end+1} = c;

% ld.jmva at every population of its what-if analysis (1..6): qncsmvald takes S(k, n),
% the service time at station k with n jobs present; the terminal is a delay centre
% (S/n), the CPU a queue, the array the listed profile.
prof = [0.3 0.15 0.15 0.15 0.1 0.1];
for N = 1:6
  Sld = zeros(3, N);
  for n = 1:N
    Sld(1, n) = 2.5 / n;
    Sld(2, n) = 0.04;
    Sld(3, n) = prof(n);
  end
  V = [1 10 2];
  c = struct("name", sprintf("ld-N%d", N), "func", "qncsmvald", "N", N, "S", Sld, "V", V);
  [c.U c.R c.Q c.X] = qncsmvald(N, Sld, V);
  cases{end+1} = c;
end
write_cases("jmva.json", cases);

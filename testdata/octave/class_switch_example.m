% class_switch_example.m — GNU Octave's solution (queueing 1.2.7) of
% examples/qn/class-switch.yaml: qncmvisits(P, r) for the visits and chains and
% qncmmva(N, S, P, r, m) for the chain solution (station 1 a delay centre: m = -1).
% Classes: 1 read, 2 write; stations: 1 terminals, 2 cpu, 3 disk.
%
% Run from this directory:   octave-cli --no-gui class_switch_example.m
% Writes class_switch_example.json. CI never runs this.
pkg load queueing;
P = zeros(2, 3, 2, 3);
P(1, 1, 1, 2) = 1;                                        % read: terminals → cpu
P(1, 2, 1, 3) = 0.6; P(1, 2, 1, 1) = 0.2; P(1, 2, 2, 3) = 0.2;   % read: cpu → disk, terminals, write@disk
P(1, 3, 1, 2) = 1;                                        % read: disk → cpu
P(2, 2, 2, 3) = 0.5; P(2, 2, 1, 1) = 0.5;                 % write: cpu → disk, read@terminals
P(2, 3, 2, 2) = 1;                                        % write: disk → cpu
r = [1 1];                                                % reference: the terminals
N = [3 2];
S = [2 0.05 0.04; 2 0.08 0.1];
m = [-1 1 1];
[V ch] = qncmvisits(P, r);
c = struct("name", "class-switch-example", "V", V, "ch", ch, "N", N, "S", S, "m", m);
[c.U c.R c.Q c.X] = qncmmva(N, S, P, r, m);
write_cases("class_switch_example.json", {c});

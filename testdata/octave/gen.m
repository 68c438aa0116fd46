% gen.m — generate reference solutions with GNU Octave's queueing package (1.2.7).
%
% Run from this directory:   octave-cli --no-gui gen.m
% (apt-get install -y --no-install-recommends octave octave-queueing)
% Writes refs.json: one object per case with the function called, its inputs and outputs.
% Conventions (Octave's): S service time per visit, V visits, m(k) >= 1 servers, m(k) < 1
% delay centre, Z think time; outputs U, R (per visit), Q, X (centre throughput), C x K.
% CI never runs this: the Go tests read refs.json.
pkg load queueing;
rand("seed", 20261122);
cases = {};

function c = mk(name, fn, N, lambda, S, V, m, Z)
  c = struct("name", name, "func", fn, "N", N, "lambda", lambda, "S", S, "V", V, "m", m, "Z", Z);
endfunction

% --- qncsmva: exact single class, queue / delay / multi-server -----------------------
Ks = [1 2 3 5 8 10 4 6 3 5 7 2];
Ns = [1 5 20 100 1000 50 10 200 3 30 500 64];
for i = 1:numel(Ks)
  K = Ks(i); N = Ns(i);
  S = round(100*(0.05 + rand(1,K)))/100;
  V = round(10*(0.5 + 2*rand(1,K)))/10;
  m = ones(1,K);
  if K >= 3, m(end) = -1; end          % a delay centre
  if mod(i,3) == 0 && K >= 2, m(1) = 1 + mod(i,4) + 1; end   % a multi-server centre
  Z = 0; if mod(i,2) == 0, Z = round(100*rand())/10; end
  c = mk(sprintf("qncsmva-%02d", i), "qncsmva", N, 0, S, V, m, Z);
  [c.U c.R c.Q c.X] = qncsmva(N, S, V, m, Z);
  cases{end+1} = c;
end

% --- qncsmvald: load-dependent single class (small N: 1.2.7 is wrong at large N) ----
lds = {[0.5 0.2 0.3], [1 0.4], [0.2 0.3 0.1 0.25], [0.8 0.8 0.1], [0.3 0.6]};
Nld = [5 10 20 8 30];
for i = 1:numel(lds)
  s1 = lds{i}; K = numel(s1); N = Nld(i);
  S = zeros(K, N);
  for k = 1:K
    for n = 1:N
      switch mod(k + i, 3)
        case 0, a = min(n, 2);            % two servers
        case 1, a = 1;                    % plain queue
        otherwise, a = 1 + 0.5*log(n);    % sub-linear speed-up
      end
      S(k,n) = s1(k) / a;
    end
  end
  V = ones(1,K); Z = (i-1)*0.5;
  c = mk(sprintf("qncsmvald-%02d", i), "qncsmvald", N, 0, S, V, ones(1,K), Z);
  [c.U c.R c.Q c.X] = qncsmvald(N, S, V, Z);
  cases{end+1} = c;
end

% --- qncmmva: exact multi-class --------------------------------------------------------
mc = {[3 2], [10 5], [4 3 2], [20 1], [6 6 6], [15 10], [2 2 2 2], [30 12 8]};
for i = 1:numel(mc)
  N = mc{i}; C = numel(N); K = 2 + mod(i, 4);
  S = round(100*(0.05 + rand(C,K)))/100;
  V = round(10*(0.5 + 2*rand(C,K)))/10;
  m = ones(1,K); if mod(i,2) == 0, m(end) = -1; end
  Z = zeros(1,C); if mod(i,3) == 0, Z = round(10*rand(1,C))/2; end
  c = mk(sprintf("qncmmva-%02d", i), "qncmmva", N, zeros(1,C), S, V, m, Z);
  [c.U c.R c.Q c.X] = qncmmva(N, S, V, m, Z);
  cases{end+1} = c;
end

% --- qncsmvaap: Schweitzer single class, tight tolerance -------------------------------
for i = 1:5
  K = 2 + i; N = [2 10 50 7 200](i);
  S = round(100*(0.05 + rand(1,K)))/100; V = ones(1,K);
  m = ones(1,K); if i > 3, m(end) = -1; end
  Z = (i-1);
  c = mk(sprintf("qncsmvaap-%02d", i), "qncsmvaap", N, 0, S, V, m, Z);
  [c.U c.R c.Q c.X] = qncsmvaap(N, S, V, m, Z, 1e-13, 100000);
  cases{end+1} = c;
end

% --- qncmmvabs: Bard-Schweitzer multi-class, tight tolerance ----------------------------
bs = {[3 2], [10 5 2], [40 20], [5 5 5], [100 1]};
for i = 1:numel(bs)
  N = bs{i}; C = numel(N); K = 3;
  S = round(100*(0.05 + rand(C,K)))/100; V = ones(C,K);
  m = ones(1,K); if i > 2, m(end) = -1; end
  Z = zeros(1,C); if i == 4, Z = [1 2 3]; end
  c = mk(sprintf("qncmmvabs-%02d", i), "qncmmvabs", N, zeros(1,C), S, V, m, Z);
  [c.U c.R c.Q c.X] = qncmmvabs(N, S, V, m, Z, 1e-13, 100000);
  cases{end+1} = c;
end

% --- qnos: open single class, M/M/1, M/M/m, IS -------------------------------------------
for i = 1:5
  K = 1 + i; lambda = [0.5 1 2 0.2 3](i);
  S = round(100*(0.02 + 0.2*rand(1,K)))/100; V = round(10*(0.5 + rand(1,K)))/10;
  m = ones(1,K);
  if i >= 2, m(1) = 3; end
  if i >= 3, m(end) = -1; end
  c = mk(sprintf("qnos-%02d", i), "qnos", 0, lambda, S, V, m, 0);
  [c.U c.R c.Q c.X] = qnos(lambda, S, V, m);
  cases{end+1} = c;
end

% --- qnmix: mixed open/closed, single-server centres only (1.2.7 crashes on delay) ------
% 1.2.7 also checks length(m) == C instead of K, so every case has C == K.
mix = {[0.5 0 0], [0 0.3 0], [0.2 0.1 0], [1 0]};
mixN = {[0 4 2], [3 0 2], [0 0 5], [0 10]};
for i = 1:numel(mix)
  lambda = mix{i}; N = mixN{i}; C = numel(N); K = C;
  S = round(100*(0.02 + 0.2*rand(C,K)))/100; V = ones(C,K);
  c = mk(sprintf("qnmix-%02d", i), "qnmix", N, lambda, S, V, ones(1,K), zeros(1,C));
  [c.U c.R c.Q c.X] = qnmix(lambda, N, S, V, ones(1,K));
  cases{end+1} = c;
end

% --- qncsaba / qncsbsb: bounds (no delay centres: qncsaba's D_max would include them) ---
for i = 1:4
  K = 2 + i; N = [1 5 20 100](i);
  S = round(100*(0.05 + rand(1,K)))/100; V = ones(1,K); Z = (i-1)*2;
  c = mk(sprintf("bounds-%02d", i), "qncsaba+qncsbsb", N, 0, S, V, ones(1,K), Z);
  [c.XlABA c.XuABA c.RlABA c.RuABA] = qncsaba(N, S, V, ones(1,K), Z);
  [c.XlBSB c.XuBSB c.RlBSB c.RuBSB] = qncsbsb(N, S, V, ones(1,K), Z);
  cases{end+1} = c;
end

% --- qncmmva with multi-server centres (issue 13), appended so the cases above keep their
% random draws. Octave's qncmmva handles m(k) > 1 by the marginal-probability recursion.
ms = {[3 2], [10 5], [4 3 2], [20 10], [6 6 6], [40 30]};
for i = 1:numel(ms)
  N = ms{i}; C = numel(N); K = 3;
  S = round(100*(0.05 + rand(C,K)))/100;
  V = round(10*(0.5 + 2*rand(C,K)))/10;
  m = [1 + mod(i, 4), 1, 2];
  if mod(i, 2) == 0, m(2) = -1; end
  if i == 6, m = [4 1 -1]; S(:,1) = 4*S(:,1); end   % high utilization at the 4-server centre
  for k = find(m > 1), S(:,k) = S(1,k); end        % FCFS multi-server: class-independent S
  Z = zeros(1,C); if mod(i,3) == 0, Z = round(10*rand(1,C))/2; end
  c = mk(sprintf("qncmmva-ms-%02d", i), "qncmmva", N, zeros(1,C), S, V, m, Z);
  [c.U c.R c.Q c.X] = qncmmva(N, S, V, m, Z);
  cases{end+1} = c;
end

write_cases("refs.json", cases);

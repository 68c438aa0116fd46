% write_cases(file, cases) — write a cell array of structs as a JSON array, one case per
% line (used by gen.m and visits.m).
function write_cases(file, cases)
  fid = fopen(file, "w");
  fprintf(fid, "[\n");
  for i = 1:numel(cases)
    fprintf(fid, "%s", jsonencode(cases{i}));
    if i < numel(cases), fprintf(fid, ",\n"); end
  end
  fprintf(fid, "\n]\n");
  fclose(fid);
  printf("wrote %d cases to %s (queueing %s)\n", numel(cases), file, pkg("describe", "queueing"){1}.version);
endfunction

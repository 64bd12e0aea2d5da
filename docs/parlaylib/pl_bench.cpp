// pl_bench KIND FILE REPS
// Times ParlayLib primitives on a PBBS sequence file (sequenceInt / sequenceDouble).
// Runs KIND REPS+1 times (first = warm-up, not reported), timing only the primitive.
#include <parlay/primitives.h>
#include <parlay/sequence.h>
#include <parlay/parallel.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

static void die(const std::string& m) { fprintf(stderr, "FAIL: %s\n", m.c_str()); exit(1); }

struct Input {
  bool is_double = false;
  std::vector<uint64_t> ints;   // raw ints (non-negative expected)
  std::vector<double> dbls;
};

static Input read_pbbs(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) die(std::string("cannot open ") + path);
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  std::string buf(sz + 1, '\0');
  if (sz > 0 && fread(&buf[0], 1, sz, f) != (size_t)sz) die("short read");
  fclose(f);
  buf[sz] = '\0';
  char* p = &buf[0];
  char* end = p + sz;
  while (p < end && isspace((unsigned char)*p)) p++;
  char* h = p;
  while (p < end && !isspace((unsigned char)*p)) p++;
  std::string header(h, p);
  Input in;
  if (header == "sequenceInt") in.is_double = false;
  else if (header == "sequenceDouble") in.is_double = true;
  else die("unknown header '" + header + "'");
  if (!in.is_double) {
    in.ints.reserve(sz / 8 + 16);
    while (true) {
      while (p < end && isspace((unsigned char)*p)) p++;
      if (p >= end) break;
      char* q;
      long long v = strtoll(p, &q, 10);
      if (q == p) die("parse error");
      if (v < 0) die("negative int in input (unsupported)");
      in.ints.push_back((uint64_t)v);
      p = q;
    }
  } else {
    in.dbls.reserve(sz / 16 + 16);
    while (true) {
      while (p < end && isspace((unsigned char)*p)) p++;
      if (p >= end) break;
      char* q;
      double v = strtod(p, &q);
      if (q == p) die("parse error");
      in.dbls.push_back(v);
      p = q;
    }
  }
  return in;
}

using clk = std::chrono::steady_clock;
static double ms_since(clk::time_point t0) {
  return std::chrono::duration<double, std::milli>(clk::now() - t0).count();
}

// Times `sort_fn` on a fresh copy of `base` per rep (the copy is not timed) and checks
// that the result is sorted, of the same length and, for integers, of the same sum.
template <class T, class SortFn>
static void time_sort(const std::string& kind, const parlay::sequence<T>& base, int reps,
                      std::vector<double>& times, SortFn sort_fn) {
  long double sum_in = 0;
  for (auto x : base) sum_in += x;
  for (int r = 0; r <= reps; r++) {
    parlay::sequence<T> a = base;
    auto t0 = clk::now();
    auto out = sort_fn(a);
    double t = ms_since(t0);
    if (r > 0) times.push_back(t);
    if (out.size() != base.size()) die(kind + ": size mismatch");
    long double s = 0;
    for (size_t i = 0; i < out.size(); i++) {
      s += out[i];
      if (i && out[i - 1] > out[i]) die(kind + ": not sorted");
    }
    if constexpr (std::is_integral_v<T>) {
      if (s != sum_in) die(kind + ": sum mismatch");
    }
  }
}

int main(int argc, char** argv) {
  if (argc != 4) { fprintf(stderr, "usage: %s KIND FILE REPS\n  KIND: isort dedup dedup_ordered hist sort sort_i64\n", argv[0]); return 2; }
  std::string kind = argv[1];
  const char* file = argv[2];
  int reps = atoi(argv[3]);
  if (reps < 1) die("REPS must be >= 1");

  Input in = read_pbbs(file);
  size_t n = in.is_double ? in.dbls.size() : in.ints.size();
  if (n == 0) die("empty input");

  std::vector<double> times;
  auto record = [&](int r, double t) { if (r > 0) times.push_back(t); };

  // ---------- int kinds: need uint32 keys ----------
  parlay::sequence<uint32_t> base;
  if (kind != "sort" || !in.is_double) {
    if (in.is_double && kind != "sort") die("kind " + kind + " needs a sequenceInt file");
    base = parlay::sequence<uint32_t>::uninitialized(n);
    for (size_t i = 0; i < n; i++) {
      if (in.ints[i] > 0xFFFFFFFFull) die("value does not fit in uint32");
      base[i] = (uint32_t)in.ints[i];
    }
  }

  if (kind == "isort") {
    // parlay::integer_sort (primitives.h -> internal/integer_sort.h), out-of-place radix sort
    time_sort(kind, base, reps, times, [](auto& a) { return parlay::integer_sort(a); });
  } else if (kind == "dedup" || kind == "dedup_ordered") {
    std::vector<uint32_t> distinct(base.begin(), base.end());
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (int r = 0; r <= reps; r++) {
      parlay::sequence<uint32_t> a = base;
      auto t0 = clk::now();
      parlay::sequence<uint32_t> out;
      if (kind == "dedup") out = parlay::remove_duplicates(a);          // internal/group_by.h, hash-based
      else out = parlay::remove_duplicates_ordered(a);                   // primitives.h, stable_sort + unique
      double t = ms_since(t0);
      record(r, t);
      if (out.size() != distinct.size())
        die(kind + ": size " + std::to_string(out.size()) + " != distinct " + std::to_string(distinct.size()));
      std::vector<uint32_t> o(out.begin(), out.end());
      if (kind == "dedup_ordered") {
        for (size_t i = 1; i < o.size(); i++) if (!(o[i - 1] < o[i])) die("dedup_ordered: output not strictly increasing");
      } else {
        std::sort(o.begin(), o.end());
      }
      if (o != distinct) die(kind + ": output set differs");
    }
  } else if (kind == "hist") {
    uint32_t mx = 0; for (auto x : base) mx = std::max(mx, x);
    size_t m = (size_t)mx + 1;
    if (m > ((size_t)1 << 27)) die("hist: max+1 = " + std::to_string(m) + " buckets is too large for this benchmark (memory)");
    std::vector<size_t> ref(m, 0);
    for (auto x : base) ref[x]++;
    for (int r = 0; r <= reps; r++) {
      parlay::sequence<uint32_t> a = base;
      auto t0 = clk::now();
      auto counts = parlay::histogram_by_index(a, m);   // internal/group_by.h -> internal::collect_reduce
      double t = ms_since(t0);
      record(r, t);
      if (counts.size() != m) die("hist: wrong number of buckets");
      size_t tot = 0; for (size_t i = 0; i < m; i++) tot += counts[i];
      if (tot != n) die("hist: counts do not sum to n");
      size_t checks[] = {0, m / 3, m / 2, m - 1, (size_t)base[0], (size_t)base[n / 2], (size_t)base[n - 1]};
      for (size_t c : checks) if (counts[c] != ref[c]) die("hist: spot check failed at " + std::to_string(c));
      if (r == 0) { for (size_t i = 0; i < m; i++) if (counts[i] != ref[i]) die("hist: full check failed"); }
    }
  } else if (kind == "sort" || kind == "sort_i64") {
    // parlay::sort (primitives.h -> internal/sample_sort.h), comparison sample sort, std::less
    auto sort = [](auto& a) { return parlay::sort(a); };
    if (in.is_double) {
      if (kind != "sort") die("sort_i64 needs a sequenceInt file");
      time_sort(kind, parlay::sequence<double>(in.dbls.begin(), in.dbls.end()), reps, times, sort);
    } else if (kind == "sort") {
      time_sort(kind, base, reps, times, sort);
    } else {
      parlay::sequence<int64_t> b64(n);
      for (size_t i = 0; i < n; i++) b64[i] = (int64_t)in.ints[i];
      time_sort(kind, b64, reps, times, sort);
    }
  } else {
    die("unknown KIND " + kind);
  }

  std::vector<double> s = times;
  std::sort(s.begin(), s.end());
  double med = (s.size() % 2) ? s[s.size() / 2] : 0.5 * (s[s.size() / 2 - 1] + s[s.size() / 2]);
  printf("%s %s threads=%zu median_ms=%.3f min_ms=%.3f all=[", kind.c_str(), file, parlay::num_workers(), med, s[0]);
  for (size_t i = 0; i < times.size(); i++) printf("%s%.3f", i ? "," : "", times[i]);
  printf("]\n");
  return 0;
}

// CPU kernels of the convolution family: im2col a row of one sample's columns at a time (rows in parallel),
// col2im an input channel at a time (its kernel rows added in turn, channels in parallel: no two threads
// write one element); Winograd F(2x2, 3x3) a block of tile rows of one sample and group at a time (input
// transform, 16 single-threaded gemms, output transform, all in the thread's cache).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include <TH/Functions.h>
#include <TH/Parallel.h>
#include <TH/ScalarType.h>

#include "../ops/Convolution.h"

namespace th {
namespace {

void im2col_kernel(const Tensor& x, const Tensor& cols, const math::ConvGeometry& g) {
  const int64_t B = x.size(0), R = g.rows(), L = g.out_numel();
  THNN_DISPATCH_IM2COL_TYPES(x.dtype(), "im2col_cpu", [&] {
    const auto* src = reinterpret_cast<const scalar_t*>(x.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(cols.data_ptr());
    parallel_for(B * R, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(L, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t i = begin; i < end; ++i) {  // i = r * B + b: a row of one sample
                     const int64_t r = i / B, b = i % B;
                     g.column_row(src + b * g.C * g.in_numel(), r, dst + (r * B + b) * L);
                   }
                 });
  });
}

void col2im_kernel(const Tensor& cols, const Tensor& grad_x, const math::ConvGeometry& g) {
  const int64_t B = grad_x.size(0), K = g.kernel_numel(), L = g.out_numel(), P = g.in_numel();
  THNN_DISPATCH_IM2COL_TYPES(grad_x.dtype(), "col2im_cpu", [&] {
    using A = opmath_t<scalar_t>;
    const auto* src = reinterpret_cast<const scalar_t*>(cols.data_ptr());
    auto* dst = reinterpret_cast<scalar_t*>(grad_x.data_ptr());
    parallel_for(B * g.C, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(K * L, 1)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t i = begin; i < end; ++i) {  // i = b * C + c
                     scalar_t* plane = dst + i * P;
                     std::fill_n(plane, P, scalar_t(0));
                     const int64_t b = i / g.C, c = i % g.C;
                     for (int64_t kk = 0; kk < K; ++kk) {
                       const int64_t r = c * K + kk;
                       g.add_column_row<scalar_t, A>(src + (r * B + b) * L, r, plane);
                     }
                   }
                 });
  });
}

namespace wino = math::winograd;

/// Tiles per work item: the item's transformed input and products ([16, C, tiles] and [16, O, tiles]) stay
/// in a core's L2 for 64 channels, and its gemms are wide enough to run near the BLAS's peak.
constexpr int64_t kItemTiles = 256;
/// The Winograd work of one convolution: items of (group, block of tile rows), the tile rows of all samples
/// numbered one after another (row r is sample r / TH's tile row r % TH), so that small planes still make
/// wide products; each item has its own buffers. An item's tiles are numbered TS = TW + 1 to a row: the
/// extra tile of each row reads the seam between two rows' padded lines (its products are ignored, and its
/// output gradient is zero), so that every transform runs as one long loop over the item's tiles instead of
/// a short one per row.
struct WinogradPlan {
  const wino::WinogradGeometry& g;
  int64_t TH, TW, TS, rows, blocks;

  explicit WinogradPlan(const wino::WinogradGeometry& geo)
      : g(geo),
        TH(geo.tiles_h()),
        TW(geo.tiles_w()),
        TS(TW + 1),
        rows(geo.N * TH),
        blocks(balanced_blocks(geo.groups, rows, TW)) {}
  /// Blocks of about kItemTiles tiles per group, so many that the threads share the items evenly.
  static int64_t balanced_blocks(int64_t groups, int64_t rows, int64_t TW) {
    const int64_t threads = get_num_threads();
    const int64_t wanted = std::max<int64_t>(1, (rows * TW + kItemTiles / 2) / kItemTiles) * groups;
    const int64_t total = (wanted + threads - 1) / threads * threads;  // a multiple of the threads
    return std::clamp<int64_t>(total / groups, 1, std::max<int64_t>(rows, 1));
  }
  int64_t items() const { return g.groups * blocks; }
  int64_t max_tiles() const { return (rows + blocks - 1) / blocks * TS; }
  /// Item i's group and tile rows [r0, r1) (blocks differ by a row at most).
  void item(int64_t i, int64_t& k, int64_t& r0, int64_t& r1) const {
    k = i / blocks;
    r0 = rows * (i % blocks) / blocks;
    r1 = rows * (i % blocks + 1) / blocks;
  }
  /// The first element of channel c of group k of tile row r's sample in a tensor [N, groups * C, H, W].
  template <typename T>
  const T* plane(const T* base, int64_t r, int64_t k, int64_t C, int64_t c, int64_t HW) const {
    return base + ((r / TH * g.groups + k) * C + c) * HW;
  }
};

/// 1 where v is infinite or NaN (v - v is NaN there, 0 elsewhere): a test without branches, which the
/// transforms' loops take along vectorized. Winograd's transforms mix the elements of a tile, so that one
/// infinity makes NaN of the tile's outputs that a direct convolution leaves finite: the kernels report a
/// non-finite operand (or an overflow in a transform: a false alarm only costs time) and the entry point
/// computes that convolution by im2col instead.
template <typename T>
inline int non_finite(T v) {
  return (v - v) != T(0);
}

/// V[p][c][t] (p the 16 tile positions, `ld` = C * tiles apart; t = (r - r0) * TS + tx) = B^T d B for the
/// 4x4 input patch of every tile in rows [r0, r1) of group k of `x` ([N, groups * C, H, W]), zero padding
/// outside the planes. False where a value is not finite (see non_finite).
template <typename T>
bool input_transform(const T* x, int64_t k, const WinogradPlan& plan, int64_t r0, int64_t r1, T* V,
                     std::vector<T>& scratch) {
  const wino::WinogradGeometry& g = plan.g;
  const int64_t C = g.C, LW = g.line_w(), tiles = (r1 - r0) * plan.TS, ld = C * tiles;
  // a zero line, then the column-transformed lines of the item's rows for each of the patch's 4 rows i (LW =
  // 2 * TS apart: tile t reads elements 2t .. 2t + 3), with 2 zeros past the last row's seam tile
  const int64_t span = tiles * wino::kOut + 2;
  scratch.assign(size_t(LW + 4 * span), T(0));
  const T* zero = scratch.data();
  T* cols[4];
  for (int i = 0; i < 4; ++i) cols[i] = scratch.data() + LW + i * span;
  // the line columns [lo, hi) that read inside the input (line column j reads input column j - pad_w)
  const int64_t lo = std::min(g.pad_w, LW), hi = std::clamp<int64_t>(g.pad_w + g.W, lo, LW);
  int bad = 0;
  for (int64_t c = 0; c < C; ++c) {
    for (int64_t r = r0; r < r1; ++r) {  // B^T down each column of the 4 input rows of tile row r
      const T* plane = plan.plane(x, r, k, C, c, g.H * g.W);
      const int64_t ty = r % plan.TH;
      const T* line[4];  // the patch rows' input from line column lo on (a zero line for padding rows)
      for (int i = 0; i < 4; ++i) {
        const int64_t iy = wino::kOut * ty - g.pad_h + i;
        line[i] = iy >= 0 && iy < g.H && hi > lo ? plane + iy * g.W + (lo - g.pad_w) : zero;
      }
      // (columns outside [lo, hi) read padding in all four rows: they stay zero)
      const T *l0 = line[0], *l1 = line[1], *l2 = line[2], *l3 = line[3];
      const int64_t at = (r - r0) * LW + lo;
      T *c0 = cols[0] + at, *c1 = cols[1] + at, *c2 = cols[2] + at, *c3 = cols[3] + at;
#pragma GCC ivdep
      for (int64_t j = 0; j < hi - lo; ++j)
        wino::input_1d(l0[j], l1[j], l2[j], l3[j], c0[j], c1[j], c2[j], c3[j]);
    }
    // then B^T along the lines, every tile of the item in one loop: positions 4i .. 4i + 3
    for (int i = 0; i < 4; ++i) {
      const T* __restrict ci = cols[i];
      T* v0 = V + 4 * i * ld + c * tiles;
      T* __restrict v1 = v0 + ld, * __restrict v2 = v1 + ld, * __restrict v3 = v2 + ld;
#pragma GCC ivdep
      for (int64_t t = 0; t < tiles; ++t) {
        const T* d = ci + wino::kOut * t;
        T a, b, e, f;
        wino::input_1d(d[0], d[1], d[2], d[3], a, b, e, f);
        v0[t] = a, v1[t] = b, v2[t] = e, v3[t] = f;
        bad |= non_finite(a + b + e + f);
      }
    }
  }
  return !bad;
}

/// Group k of `out` ([N, groups * O, Ho, Wo]) in tile rows [r0, r1) = A^T m A of the products M[p][o][t]
/// (positions `ld` = O * tiles apart), plus bias[o] where given.
template <typename T>
void output_transform(const T* M, int64_t k, const WinogradPlan& plan, int64_t r0, int64_t r1, const T* bias,
                      T* out, std::vector<T>& scratch) {
  const wino::WinogradGeometry& g = plan.g;
  const int64_t O = g.O, tiles = (r1 - r0) * plan.TS, ld = O * tiles;
  scratch.resize(size_t(12 * tiles));
  T* s = scratch.data();              // s[(2i + b) * tiles + t]: A^T along row i of tile t's products
  T* y = scratch.data() + 8 * tiles;  // y[a * 2 * tiles + 2t + b]: the tile's output (a, b)
  for (int64_t o = 0; o < O; ++o) {
    const T* m = M + o * tiles;
    for (int i = 0; i < 4; ++i) {
      const T* __restrict m0 = m + 4 * i * ld, * __restrict m1 = m0 + ld, * __restrict m2 = m1 + ld, * __restrict m3 = m2 + ld;
      T* __restrict s0 = s + 2 * i * tiles, * __restrict s1 = s0 + tiles;
      for (int64_t t = 0; t < tiles; ++t) wino::output_1d(m0[t], m1[t], m2[t], m3[t], s0[t], s1[t]);
    }
    const T bo = bias ? bias[o] : T(0);
    T* __restrict y0 = y, * __restrict y1 = y + 2 * tiles;
    for (int bcol = 0; bcol < 2; ++bcol) {  // then down the tile's two columns
      const T* __restrict s0 = s + bcol * tiles, * __restrict s1 = s0 + 2 * tiles, * __restrict s2 = s1 + 2 * tiles, * __restrict s3 = s2 + 2 * tiles;
      for (int64_t t = 0; t < tiles; ++t) {
        T a0, a1;
        wino::output_1d(s0[t], s1[t], s2[t], s3[t], a0, a1);
        y0[wino::kOut * t + bcol] = a0 + bo;
        y1[wino::kOut * t + bcol] = a1 + bo;
      }
    }
    for (int64_t r = r0; r < r1; ++r) {  // each tile row's two output lines (the seam tile left out)
      T* plane = const_cast<T*>(plan.plane(static_cast<const T*>(out), r, k, O, o, g.Ho * g.Wo));
      const int64_t oy = wino::kOut * (r % plan.TH), at = (r - r0) * plan.TS * wino::kOut;
      std::memcpy(plane + oy * g.Wo, y0 + at, size_t(g.Wo) * sizeof(T));
      if (oy + 1 < g.Ho) std::memcpy(plane + (oy + 1) * g.Wo, y1 + at, size_t(g.Wo) * sizeof(T));
    }
  }
}

/// U ([groups, 16, O, C]) = G g G^T of every 3x3 kernel of `weight` (see winograd_conv_fn for `transposed`);
/// `finite` tells whether every value of U is.
template <typename T>
Tensor weight_transform(const Tensor& weight, const wino::WinogradGeometry& g, bool transposed,
                        bool& finite) {
  Tensor U = empty_tensor({g.groups, wino::kPositions, g.O, g.C}, weight.dtype(), weight.device());
  const T* w = reinterpret_cast<const T*>(weight.data_ptr());
  T* u = reinterpret_cast<T*>(U.data_ptr());
  const int64_t OC = g.O * g.C;
  parallel_for(g.groups * OC, std::max<int64_t>(1, kGrainSize / 64), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {  // i = (k * O + o) * C + c
      const int64_t k = i / OC, o = (i / g.C) % g.O, c = i % g.C;
      T kernel[9];
      if (transposed) {  // weight[k * C + c][o], flipped
        const T* src = w + ((k * g.C + c) * g.O + o) * 9;
        for (int e = 0; e < 9; ++e) kernel[e] = src[8 - e];
      } else {
        std::memcpy(kernel, w + i * 9, sizeof(kernel));
      }
      wino::weight_tile(kernel, u + k * wino::kPositions * OC + o * g.C + c, OC);
    }
  });
  finite = parallel_reduce(
      U.numel(), kGrainSize, true,
      [&](int64_t begin, int64_t end) {
        int bad = 0;
        for (int64_t i = begin; i < end; ++i) bad |= non_finite(u[i]);
        return !bad;
      },
      [](bool a, bool b) { return a && b; });
  return U;
}

/// A [16, rows, tiles] view of the first elements of a buffer.
Tensor positions_view(const Tensor& buf, int64_t rows, int64_t tiles) {
  return as_strided(buf, {wino::kPositions, rows, tiles}, {rows * tiles, tiles, 1}, int64_t(0));
}

template <typename T>
bool winograd_conv(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& out,
                   const wino::WinogradGeometry& g, bool transposed) {
  const WinogradPlan plan(g);
  bool finite = true;
  const Tensor U = weight_transform<T>(weight, g, transposed, finite);
  if (!finite) return false;
  std::atomic<bool> all_finite{true};
  const T* px = reinterpret_cast<const T*>(x.data_ptr());
  const T* pb = bias.defined() ? reinterpret_cast<const T*>(bias.data_ptr()) : nullptr;
  T* po = reinterpret_cast<T*>(out.data_ptr());
  parallel_for(plan.items(), 0, [&](int64_t begin, int64_t end) {
    // this thread's buffers: the transformed input and the products of one item
    Tensor Vbuf = empty_tensor({wino::kPositions * g.C * plan.max_tiles()}, x.dtype(), x.device());
    Tensor Mbuf = empty_tensor({wino::kPositions * g.O * plan.max_tiles()}, x.dtype(), x.device());
    std::vector<T> scratch;
    for (int64_t i = begin; i < end; ++i) {
      int64_t k, r0, r1;
      plan.item(i, k, r0, r1);
      const int64_t tiles = (r1 - r0) * plan.TS;
      Tensor V = positions_view(Vbuf, g.C, tiles), M = positions_view(Mbuf, g.O, tiles);
      if (!input_transform(px, k, plan, r0, r1, reinterpret_cast<T*>(V.data_ptr()), scratch)) {
        all_finite = false;
        return;
      }
      bmm_out(M, select(U, 0, k), V);  // per position: [O, C] x [C, tiles], on this thread
      output_transform(reinterpret_cast<const T*>(M.data_ptr()), k, plan, r0, r1, pb ? pb + k * g.O : nullptr,
                       po, scratch);
    }
  });
  return all_finite;
}

bool winograd_conv_kernel(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& out,
                          const wino::WinogradGeometry& g, bool transposed) {
  if (x.dtype() == ScalarType::Double) return winograd_conv<double>(x, weight, bias, out, g, transposed);
  TH_CHECK(x.dtype() == ScalarType::Float, "winograd_conv: float or double only");
  return winograd_conv<float>(x, weight, bias, out, g, transposed);
}

/// Mg[p][o][t] (positions `ld` = O * tiles apart) = A dy A^T of the output gradient's 2x2 block of every
/// tile in rows [r0, r1) of group k of `gy` ([N, groups * O, Ho, Wo]), zero past the planes' edges (and for
/// the seam tiles). False where a value is not finite.
template <typename T>
bool output_grad_transform(const T* gy, int64_t k, const WinogradPlan& plan, int64_t r0, int64_t r1, T* Mg,
                           std::vector<T>& scratch) {
  const wino::WinogradGeometry& g = plan.g;
  const int64_t O = g.O, tiles = (r1 - r0) * plan.TS, ld = O * tiles, YW = wino::kOut * tiles;
  scratch.assign(size_t(2 * YW + 8 * tiles), T(0));  // the blocks' two output lines (zero past Wo), then q
  T* y[2] = {scratch.data(), scratch.data() + YW};
  T* q = scratch.data() + 2 * YW;  // q[(4a + j) * tiles + t]: A along line a of tile t's block
  int bad = 0;
  for (int64_t o = 0; o < O; ++o) {
    for (int64_t r = r0; r < r1; ++r) {
      const T* plane = plan.plane(gy, r, k, O, o, g.Ho * g.Wo);
      const int64_t oy = wino::kOut * (r % plan.TH), at = (r - r0) * plan.TS * wino::kOut;
      std::memcpy(y[0] + at, plane + oy * g.Wo, size_t(g.Wo) * sizeof(T));
      if (oy + 1 < g.Ho) {
        std::memcpy(y[1] + at, plane + (oy + 1) * g.Wo, size_t(g.Wo) * sizeof(T));
      } else {
        std::fill_n(y[1] + at, g.Wo, T(0));
      }
    }
    for (int a = 0; a < 2; ++a) {
      const T* __restrict ya = y[a];
      T* __restrict q0 = q + 4 * a * tiles, * __restrict q1 = q0 + tiles, * __restrict q2 = q1 + tiles, * __restrict q3 = q2 + tiles;
      for (int64_t t = 0; t < tiles; ++t)
        wino::output_grad_1d(ya[wino::kOut * t], ya[wino::kOut * t + 1], q0[t], q1[t], q2[t], q3[t]);
    }
    T* m = Mg + o * tiles;
    for (int j = 0; j < 4; ++j) {  // then down column j: positions j, 4 + j, 8 + j, 12 + j
      const T* __restrict qa = q + j * tiles, * __restrict qb = q + (4 + j) * tiles;
      T* d0 = m + j * ld;
      T* __restrict d1 = d0 + 4 * ld, * __restrict d2 = d1 + 4 * ld, * __restrict d3 = d2 + 4 * ld;
#pragma GCC ivdep
      for (int64_t t = 0; t < tiles; ++t) {
        wino::output_grad_1d(qa[t], qb[t], d0[t], d1[t], d2[t], d3[t]);
        bad |= non_finite(d1[t] + d2[t]);
      }
    }
  }
  return !bad;
}

template <typename T>
bool winograd_weight_grad(const Tensor& x, const Tensor& grad_out, const Tensor& grad_weight,
                          const wino::WinogradGeometry& g) {
  const WinogradPlan plan(g);
  const int64_t items = plan.items(), workers = std::min<int64_t>(get_num_threads(), items);
  const int64_t OC = g.O * g.C;
  const T* px = reinterpret_cast<const T*>(x.data_ptr());
  const T* pg = reinterpret_cast<const T*>(grad_out.data_ptr());
  // per worker (a fixed share of the items, summed in worker order: deterministic for a thread count):
  // dU[k][p] ([O, C]) += Mg[p] @ V[p]^T over its items
  Tensor dU = zeros({workers, g.groups, wino::kPositions, g.O, g.C}, x.dtype(), x.device());
  std::atomic<bool> all_finite{true};
  parallel_for(workers, 0, [&](int64_t wbegin, int64_t wend) {
    Tensor Vbuf = empty_tensor({wino::kPositions * g.C * plan.max_tiles()}, x.dtype(), x.device());
    Tensor Mbuf = empty_tensor({wino::kPositions * g.O * plan.max_tiles()}, x.dtype(), x.device());
    std::vector<T> scratch;
    for (int64_t w = wbegin; w < wend; ++w) {
      for (int64_t i = items * w / workers; i < items * (w + 1) / workers; ++i) {
        int64_t k, r0, r1;
        plan.item(i, k, r0, r1);
        const int64_t tiles = (r1 - r0) * plan.TS;
        Tensor V = positions_view(Vbuf, g.C, tiles), Mg = positions_view(Mbuf, g.O, tiles);
        if (!input_transform(px, k, plan, r0, r1, reinterpret_cast<T*>(V.data_ptr()), scratch) ||
            !output_grad_transform(pg, k, plan, r0, r1, reinterpret_cast<T*>(Mg.data_ptr()), scratch)) {
          all_finite = false;
          return;
        }
        Tensor dUk = select(select(dU, 0, w), 0, k);
        for (int64_t p = 0; p < wino::kPositions; ++p) {
          Tensor dst = select(dUk, 0, p);
          addmm_(dst, select(Mg, 0, p), transpose(select(V, 0, p), 0, 1), Scalar(int64_t(1)),
                 Scalar(int64_t(1)));
        }
      }
    }
  });
  if (!all_finite) return false;
  const Tensor total = contiguous(sum(dU, IntList{0}, false, std::nullopt));  // [groups, 16, O, C]
  const T* du = reinterpret_cast<const T*>(total.data_ptr());
  T* gw = reinterpret_cast<T*>(grad_weight.data_ptr());
  parallel_for(g.groups * OC, std::max<int64_t>(1, kGrainSize / 64), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {  // i = (k * O + o) * C + c: grad_weight[k * O + o][c]
      const int64_t k = i / OC, oc = i % OC;
      wino::weight_grad_tile(du + k * wino::kPositions * OC + oc, OC, gw + i * 9);
    }
  });
  return true;
}

bool winograd_weight_grad_kernel(const Tensor& x, const Tensor& grad_out, const Tensor& grad_weight,
                                 const wino::WinogradGeometry& g) {
  if (x.dtype() == ScalarType::Double) return winograd_weight_grad<double>(x, grad_out, grad_weight, g);
  TH_CHECK(x.dtype() == ScalarType::Float, "winograd_weight_grad: float or double only");
  return winograd_weight_grad<float>(x, grad_out, grad_weight, g);
}

}  // namespace

TH_REGISTER_KERNEL(im2col_stub, CPU, im2col_kernel);
TH_REGISTER_KERNEL(col2im_stub, CPU, col2im_kernel);
TH_REGISTER_KERNEL(winograd_conv_stub, CPU, winograd_conv_kernel);
TH_REGISTER_KERNEL(winograd_weight_grad_stub, CPU, winograd_weight_grad_kernel);

}  // namespace th

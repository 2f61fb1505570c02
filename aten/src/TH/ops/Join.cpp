// cat / stack: one result, each input copied into its slice (copy_ converts dtypes and layouts).
#include "../Functions.h"

namespace th {

namespace {
/// Whether strides order a 4-D (5-D) tensor's dims as channels-last does (upstream's
/// is_channels_last_strides_2d_s4 / _3d_s5): C innermost, then W, H (D), N, each stride at least the span of
/// the one inside it (gaps allowed), with upstream's rules for the ambiguous size-1 dims (an N111 tensor and
/// a 1C1W permutation are row-major).
bool strides_like_channels_last(const Tensor& t) {
  static constexpr int kOrder4[] = {1, 3, 2, 0}, kOrder5[] = {1, 4, 3, 2, 0};
  if (t.dim() != 4 && t.dim() != 5) return false;
  if (t.stride(1) == 0) return false;
  int64_t min = 0;
  const int* order = t.dim() == 4 ? kOrder4 : kOrder5;
  for (int i = 0; i < t.dim(); ++i) {
    const int d = order[i];
    if (t.size(d) == 0 || t.stride(d) < min) return false;
    if (d == 0 && min == t.stride(1)) return false;
    min = t.stride(d) * (t.size(d) > 1 ? t.size(d) : 1);
  }
  return true;
}

/// A tensor's layout as upstream's suggest_memory_format names it: channels-last (3d) for a 4-D (5-D) tensor
/// whose strides are like it, else row-major.
MemoryFormat suggested_format(const Tensor& t) {
  if (!strides_like_channels_last(t)) return MemoryFormat::Contiguous;
  return t.dim() == 4 ? MemoryFormat::ChannelsLast : MemoryFormat::ChannelsLast3d;
}

/// cat's output layout (upstream's cat_compute_output_memory_format): the inputs' common suggested layout,
/// row-major when any is row-major or two differ.
MemoryFormat cat_memory_format(const std::vector<Tensor>& tensors) {
  const MemoryFormat f = suggested_format(tensors[0]);
  for (const Tensor& t : tensors)
    if (suggested_format(t) != f) return MemoryFormat::Contiguous;
  return f;
}
}  // namespace

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  TH_CHECK_T(ValueError, !tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  // legacy rule kept by PyTorch: 1-D empty tensors are skipped for shapes, but every input,
  // skipped or not, takes part in the result's dtype
  std::vector<const Tensor*> parts;
  ScalarType dtype = tensors[0].dtype();
  for (const Tensor& t : tensors) {
    dtype = promote_types(dtype, t.dtype());
    if (!(t.dim() == 1 && t.numel() == 0)) parts.push_back(&t);
  }
  if (parts.empty()) return empty_tensor(tensors[0].sizes(), dtype, tensors[0].device());
  const Tensor& first = *parts[0];
  TH_CHECK(first.dim() > 0, "zero-dimensional tensor (at position 0) cannot be concatenated");
  const int64_t d = wrap_dim(dim, first.dim());
  IntList sizes = first.sizes();
  sizes[size_t(d)] = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Tensor& t = *parts[i];
    TH_CHECK(t.dim() > 0, "zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    TH_CHECK(t.dim() == first.dim(), "Tensors must have same number of dimensions: got ", first.dim(),
             " and ", t.dim());
    TH_CHECK(t.device() == first.device(),
             "Expected all tensors to be on the same device, but found at least two "
             "devices, ",
             first.device().str(), " and ", t.device().str(), "!");
    for (int64_t k = 0; k < t.dim(); ++k) {
      TH_CHECK(k == d || t.size(k) == first.size(k), "Sizes of tensors must match except in dimension ", d,
               ". Expected size ", first.size(k), " but got size ", t.size(k), " for tensor number ", i,
               " in the list.");
    }
    sizes[size_t(d)] += t.size(d);
  }
  Tensor out = empty_like_tensor(first, sizes, dtype, first.device(), cat_memory_format(tensors));
  int64_t offset = 0;
  for (const Tensor* t : parts) {
    Tensor slot = narrow(out, d, offset, t->size(d));
    copy_(slot, *t);
    offset += t->size(d);
  }
  out.storage()->reset_version();
  return out;
}

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) {
  TH_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  const int64_t d = wrap_dim(dim, tensors[0].dim() + 1);
  for (size_t i = 0; i < tensors.size(); ++i)
    TH_CHECK(tensors[i].sizes() == tensors[0].sizes(), "stack expects each tensor to be equal size, but got ",
             shape_str(tensors[0].sizes()), " at entry 0 and ", shape_str(tensors[i].sizes()), " at entry ",
             i);
  // upstream's: inside the inputs' dims, cat along dim d split in two (so the layout is the inputs' own);
  // past the last, cat of the inputs unsqueezed there
  if (d < tensors[0].dim()) {
    IntList sizes = tensors[0].sizes();
    sizes.insert(sizes.begin() + d, int64_t(tensors.size()));
    return view(cat(tensors, d), sizes);
  }
  std::vector<Tensor> expanded;
  for (const Tensor& t : tensors) expanded.push_back(unsqueeze(t, d));
  return cat(expanded, d);
}

}  // namespace th

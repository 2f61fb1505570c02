#pragma once
// torch.set_float32_matmul_precision: how float32 matrix products may trade precision for speed
// ("highest": float32 throughout, the default; "high": TF32 tensor cores on CUDA; "medium": TF32 too,
// bf16 where a backend has it). The CPU products stay float32 at every setting (as upstream's do
// without oneDNN's bf16 path); THC's cuBLAS products read it (torch.backends.cuda.matmul.allow_tf32).

namespace th {

enum class MatmulPrecision { Highest, High, Medium };

/// The current float32 matmul precision (process-wide, like PyTorch's).
MatmulPrecision float32_matmul_precision();
/// Sets it; "highest", "high" or "medium" from Python (torch/_refs/settings.py checks the name).
void set_float32_matmul_precision(MatmulPrecision p);

}  // namespace th

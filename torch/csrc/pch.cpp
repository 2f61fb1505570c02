// The target _C_pch exists to own _C's precompiled header (torch/csrc/CMakeLists.txt); this
// translation unit is empty.

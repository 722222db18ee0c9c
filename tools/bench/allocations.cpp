#include "tools/bench/allocations.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<std::uint64_t> g_count{0};
std::atomic<std::uint64_t> g_bytes{0};

void* counted(std::size_t size) {
  g_count.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(size, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}

void* counted_aligned(std::size_t size, std::align_val_t align) {
  g_count.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(size, std::memory_order_relaxed);
  const auto a = static_cast<std::size_t>(align);
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(a, ((size == 0 ? 1 : size) + a - 1) / a * a);
}

void* or_throw(void* p) {
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

// The replaceable global allocation functions ([new.delete]); the rest default to these.
void* operator new(std::size_t size) {
  return or_throw(counted(size));
}
void* operator new[](std::size_t size) {
  return or_throw(counted(size));
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return counted(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return counted(size);
}
void* operator new(std::size_t size, std::align_val_t align) {
  return or_throw(counted_aligned(size, align));
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return or_throw(counted_aligned(size, align));
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}

namespace castra::bench {

std::uint64_t allocations_so_far() {
  return g_count.load(std::memory_order_relaxed);
}

std::uint64_t allocated_bytes_so_far() {
  return g_bytes.load(std::memory_order_relaxed);
}

AllocationMeter::AllocationMeter()
    : count_(allocations_so_far()), bytes_(allocated_bytes_so_far()) {}

void AllocationMeter::pause() {
  paused_count_ = allocations_so_far();
  paused_bytes_ = allocated_bytes_so_far();
}

void AllocationMeter::resume() {
  left_out_count_ += allocations_so_far() - paused_count_;
  left_out_bytes_ += allocated_bytes_so_far() - paused_bytes_;
}

void AllocationMeter::report(benchmark::State& state, double ops_per_iteration) const {
  const auto count =
      static_cast<double>(allocations_so_far() - count_ - left_out_count_) / ops_per_iteration;
  const auto bytes =
      static_cast<double>(allocated_bytes_so_far() - bytes_ - left_out_bytes_) / ops_per_iteration;
  state.counters["allocs"] = benchmark::Counter(count, benchmark::Counter::kAvgIterations);
  state.counters["alloc_bytes"] = benchmark::Counter(bytes, benchmark::Counter::kAvgIterations);
}

}  // namespace castra::bench

"""Hand-written OpenCL timing harness (experiment, not shipped): sums and copies of the same bytes."""
import ctypes as C, statistics, sys
cl = C.CDLL("libOpenCL.so.1")
vp = C.c_void_p
def chk(e, what):
    if e != 0:
        raise SystemExit("%s failed: %d" % (what, e))
n = C.c_uint()
chk(cl.clGetPlatformIDs(0, None, C.byref(n)), "platforms")
plats = (vp * n.value)()
chk(cl.clGetPlatformIDs(n.value, plats, None), "platforms")
want = sys.argv[1] if len(sys.argv) > 1 else ""
dev = None
for p in plats:
    name = C.create_string_buffer(256)
    cl.clGetPlatformInfo(vp(p), 0x0902, 256, name, None)
    if want.encode() in name.value:
        d = vp()
        if cl.clGetDeviceIDs(vp(p), 0xFFFFFFFF, 1, C.byref(d), None) == 0:
            dev = d
            print("platform", name.value.decode())
            break
err = C.c_int()
cl.clCreateContext.restype = vp
ctx = vp(cl.clCreateContext(None, 1, C.byref(dev), None, None, C.byref(err)))
chk(err.value, "context")
cl.clCreateCommandQueue.restype = vp
q = vp(cl.clCreateCommandQueue(ctx, dev, C.c_ulong(2), C.byref(err)))  # profiling
chk(err.value, "queue")
SRC = r"""
#define G 256
#define TREE(s) \
  part[t] = s; barrier(CLK_LOCAL_MEM_FENCE); \
  for (int h = G / 2; h > 0; h >>= 1) { if (t < h) part[t] += part[t + h]; barrier(CLK_LOCAL_MEM_FENCE); } \
  if (t == 0) out[get_group_id(0)] = part[0];
__kernel __attribute__((reqd_work_group_size(G,1,1)))
void sum1(__global const float *restrict a, __global float *restrict out, int n) {
  __local float part[G]; int t = get_local_id(0);
  float s = 0.0f, c = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    float y = a[i] - c; float u = s + y; c = (u - s) - y; s = u; }
  TREE(s)
}
__kernel __attribute__((reqd_work_group_size(G,1,1)))
void sum4(__global const float4 *restrict a, __global float *restrict out, int n4) {
  __local float part[G]; int t = get_local_id(0);
  float s = 0.0f, c = 0.0f;
  for (int i = get_global_id(0); i < n4; i += get_global_size(0)) {
    float4 v = a[i];
    float y = v.x - c; float u = s + y; c = (u - s) - y; s = u;
    y = v.y - c; u = s + y; c = (u - s) - y; s = u;
    y = v.z - c; u = s + y; c = (u - s) - y; s = u;
    y = v.w - c; u = s + y; c = (u - s) - y; s = u; }
  TREE(s)
}
__kernel __attribute__((reqd_work_group_size(G,1,1)))
void sum1x4(__global const float *restrict a, __global float *restrict out, int n) {
  __local float part[G]; int t = get_local_id(0);
  float s = 0.0f, c = 0.0f; int gs = get_global_size(0);
  int i = get_global_id(0);
  for (; i + 3 * gs < n; i += 4 * gs) {
    float v0 = a[i], v1 = a[i + gs], v2 = a[i + 2 * gs], v3 = a[i + 3 * gs];
    float y = v0 - c; float u = s + y; c = (u - s) - y; s = u;
    y = v1 - c; u = s + y; c = (u - s) - y; s = u;
    y = v2 - c; u = s + y; c = (u - s) - y; s = u;
    y = v3 - c; u = s + y; c = (u - s) - y; s = u; }
  for (; i < n; i += gs) { float y = a[i] - c; float u = s + y; c = (u - s) - y; s = u; }
  TREE(s)
}
__kernel void copy1(__global const float *restrict a, __global float *restrict b, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) b[i] = a[i]; }
__kernel void copy4(__global const float4 *restrict a, __global float4 *restrict b, int n4) {
  for (int i = get_global_id(0); i < n4; i += get_global_size(0)) b[i] = a[i]; }
"""
src = C.c_char_p(SRC.encode())
cl.clCreateProgramWithSource.restype = vp
prog = vp(cl.clCreateProgramWithSource(ctx, 1, C.byref(src), None, C.byref(err)))
chk(err.value, "program")
e = cl.clBuildProgram(prog, 1, C.byref(dev), b"", None, None)
if e != 0:
    log = C.create_string_buffer(1 << 16)
    cl.clGetProgramBuildInfo(prog, dev, 0x1183, 1 << 16, log, None)
    print(log.value.decode()); raise SystemExit("build failed")
cl.clCreateBuffer.restype = vp
cl.clCreateKernel.restype = vp
def buf(nbytes):
    b = vp(cl.clCreateBuffer(ctx, C.c_ulong(1), C.c_size_t(nbytes), None, C.byref(err)))
    chk(err.value, "buffer"); return b
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 24
A = buf(4 * N); B = buf(4 * N); P = buf(4 * 65536)
import array
host = array.array("f", [1.0]) * N
chk(cl.clEnqueueWriteBuffer(q, A, 1, C.c_size_t(0), C.c_size_t(4 * N), host.buffer_info()[0] and C.c_void_p(host.buffer_info()[0]), 0, None, None), "write")
def run(kname, groups, n, out, repeat=50):
    k = vp(cl.clCreateKernel(prog, kname.encode(), C.byref(err))); chk(err.value, kname)
    cl.clSetKernelArg(k, 0, C.c_size_t(8), C.byref(A))
    cl.clSetKernelArg(k, 1, C.c_size_t(8), C.byref(out))
    nn = C.c_int(n); cl.clSetKernelArg(k, 2, C.c_size_t(4), C.byref(nn))
    gsz = (C.c_size_t * 1)(groups * 256); lsz = (C.c_size_t * 1)(256)
    times = []
    for r in range(repeat + 3):
        ev = vp()
        chk(cl.clEnqueueNDRangeKernel(q, k, 1, None, gsz, lsz, 0, None, C.byref(ev)), "launch")
        chk(cl.clWaitForEvents(1, C.byref(ev)), "wait")
        t0 = C.c_ulong(); t1 = C.c_ulong()
        cl.clGetEventProfilingInfo(ev, 0x1282, 8, C.byref(t0), None)
        cl.clGetEventProfilingInfo(ev, 0x1283, 8, C.byref(t1), None)
        cl.clReleaseEvent(ev)
        if r >= 3: times.append((t1.value - t0.value) / 1e3)
    return statistics.median(times)
res = C.create_string_buffer(4)
for groups in [1056, 528, 264]:
    print("N=%d groups=%d: sum1 %.2f us, sum4 %.2f us, sum1x4 %.2f us" % (
        N, groups, run("sum1", groups, N, P), run("sum4", groups, N // 4, P), run("sum1x4", groups, N, P)))
chk(cl.clFinish(q), "finish")
outv = array.array("f", [0.0]) * 1056
cl.clEnqueueReadBuffer(q, P, 1, C.c_size_t(0), C.c_size_t(4 * 264), C.c_void_p(outv.buffer_info()[0]), 0, None, None)
print("check: partials of the last run sum to %.1f (expect %d)" % (sum(outv[:264]), N))
for groups in [1056]:
    print("copy of N/2=%d: copy1 %.2f us, copy4 %.2f us" % (
        N // 2, run("copy1", groups, N // 2, B), run("copy4", groups, N // 8, B)))
    print("copy of N=%d: copy1 %.2f us, copy4 %.2f us" % (
        N, run("copy1", groups, N, B), run("copy4", groups, N // 4, B)))

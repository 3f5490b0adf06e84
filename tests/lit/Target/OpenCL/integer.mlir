// Signless integers print as signed C types; the unsigned ops cast to the
// unsigned type of the same width; i1 is bool; literals carry their type.
// RUN: tile-translate --kernel-ir-to-opencl %s | FileCheck %s

module attributes {gpu.container_module, tile.index_bits = 32 : i64} {
  gpu.module @kernels {
    gpu.func @ints(%a: memref<4xi32>, %b: memref<4xi8>, %c: memref<4xi64>, %d: memref<4xi16>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xi32>
      %y = memref.load %b[%i] : memref<4xi8>
      %min = arith.constant -2147483648 : i32
      %seven = arith.constant 7 : i32
      %q = arith.divui %x, %seven : i32
      %r = arith.remui %x, %min : i32
      %s = arith.shrui %q, %seven : i32
      %t = arith.shrsi %r, %seven : i32
      %u = arith.shli %s, %seven : i32
      %lt = arith.cmpi ult, %t, %u : i32
      %ge = arith.cmpi sge, %t, %u : i32
      %both = arith.andi %lt, %ge : i1
      %mx = arith.maxui %x, %u : i32
      %mn = arith.minsi %mx, %t : i32
      %fd = arith.floordivsi %mn, %seven : i32
      %cd = arith.ceildivsi %fd, %seven : i32
      %cu = arith.ceildivui %cd, %seven : i32
      %wide = arith.extui %y : i8 to i64
      %swide = arith.extsi %y : i8 to i64
      %bw = arith.extsi %both : i1 to i64
      %sum = arith.addi %wide, %swide : i64
      %sum2 = arith.muli %sum, %bw : i64
      %big = arith.constant 5000000000 : i64
      %sum3 = arith.subi %sum2, %big : i64
      memref.store %sum3, %c[%i] : memref<4xi64>
      %nb = arith.trunci %cu : i32 to i8
      %bit = arith.trunci %cu : i32 to i1
      %bb = arith.extui %bit : i1 to i8
      %m8 = arith.constant -3 : i8
      %sel = arith.select %bit, %nb, %m8 : i8
      %f = arith.uitofp %x : i32 to f32
      %fi = arith.fptoui %f : f32 to i16
      %fs = arith.fptosi %f : f32 to i16
      %fx = arith.xori %fi, %fs : i16
      memref.store %fx, %d[%i] : memref<4xi16>
      %cnt = math.ctpop %x : i32
      %lz = math.ctlz %cnt : i32
      %tz = math.cttz %lz : i32
      %ab = math.absi %tz : i32
      %bits = arith.bitcast %f : f32 to i32
      %z = arith.ori %ab, %bits : i32
      memref.store %z, %a[%i] : memref<4xi32>
      memref.store %sel, %b[%i] : memref<4xi8>
      memref.store %bb, %b[%i] : memref<4xi8>
      gpu.return
    }
  }
}

// CHECK-LABEL: void ints(
// CHECK:   int v1 = arg0[v0];
// CHECK-NEXT:   char v2 = arg1[v0];
// CHECK-NEXT:   int v3 = (int)((uint)v1 / (uint)7);
// CHECK-NEXT:   int v4 = (int)((uint)v1 % (uint)(-2147483647 - 1));
// CHECK-NEXT:   int v5 = (int)((uint)v3 >> 7);
// CHECK-NEXT:   int v6 = v4 >> 7;
// CHECK-NEXT:   int v7 = (int)((uint)v5 << 7);
// CHECK-NEXT:   bool v8 = (uint)v6 < (uint)v7;
// CHECK-NEXT:   bool v9 = v6 >= v7;
// CHECK-NEXT:   bool v10 = v8 & v9;
// CHECK-NEXT:   int v11 = (uint)v1 > (uint)v7 ? v1 : v7;
// CHECK-NEXT:   int v12 = v11 < v6 ? v11 : v6;
// CHECK-NEXT:   int v13 = v12 / 7 - ((v12 % 7 != 0) && ((v12 % 7 < 0) != (7 < 0)));
// CHECK-NEXT:   int v14 = v13 / 7 + ((v13 % 7 != 0) && !((v13 % 7 < 0) != (7 < 0)));
// CHECK-NEXT:   int v15 = (int)((uint)v14 / (uint)7 + ((uint)v14 % (uint)7 != 0));
// CHECK-NEXT:   long v16 = (long)(uchar)v2;
// CHECK-NEXT:   long v17 = (long)v2;
// CHECK-NEXT:   long v18 = (long)(-(int)v10);
// CHECK-NEXT:   long v19 = (long)((ulong)v16 + (ulong)v17);
// CHECK-NEXT:   long v20 = (long)((ulong)v19 * (ulong)v18);
// CHECK-NEXT:   long v21 = (long)((ulong)v20 - (ulong)5000000000L);
// CHECK-NEXT:   arg2[v0] = v21;
// CHECK-NEXT:   char v22 = (char)v15;
// CHECK-NEXT:   bool v23 = (v15 & 1) != 0;
// CHECK-NEXT:   char v24 = (char)v23;
// CHECK-NEXT:   char v25 = v23 ? v22 : ((char)-3);
// CHECK-NEXT:   float v26 = (float)(uint)v1;
// CHECK-NEXT:   short v27 = (short)(ushort)v26;
// CHECK-NEXT:   short v28 = (short)v26;
// CHECK-NEXT:   short v29 = v27 ^ v28;
// CHECK-NEXT:   arg3[v0] = v29;
// CHECK-NEXT:   int v30 = (int)popcount(v1);
// CHECK-NEXT:   int v31 = (int)clz(v30);
// CHECK-NEXT:   int v32 = (int)popcount((uint)(((uint)v31 & -(uint)v31) - 1));
// CHECK-NEXT:   int v33 = ((v32 == (-2147483647 - 1)) ? v32 : (int)abs(v32));
// CHECK-NEXT:   int v34 = as_int(v26);
// CHECK-NEXT:   int v35 = v33 | v34;
// CHECK-NEXT:   arg0[v0] = v35;
// CHECK-NEXT:   arg1[v0] = v25;
// CHECK-NEXT:   arg1[v0] = v24;

// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-check-protocol

// A two-stage ring, refilled in the loop: the parity of slot k % 2 is
// (k / 2) & 1. Quiet.
tt.func @ring_with_flipping_parity(%x: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c8 = arith.constant 8 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  scf.for %k = %c0 to %c8 step %c1 : i32 {
    %s = arith.remsi %k, %c2 : i32
    %bar = tlx.local_view %bars[%s] : !tlx.mbarriers<2>
    tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
    %round = arith.divsi %k, %c2 : i32
    %phase = arith.andi %round, %c1 : i32
    tlx.barrier_wait %bar, %phase : !tlx.mbarrier
  }
  tt.return
}

// -----

// The same ring waited with a constant parity, eight static trips: the
// second wait on each slot returns on the first completion.
tt.func @ring_with_constant_parity(%x: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c8 = arith.constant 8 : i32
  // expected-note @below {{the mbarriers}}
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  scf.for %k = %c0 to %c8 step %c1 : i32 {
    %s = arith.remsi %k, %c2 : i32
    %bar = tlx.local_view %bars[%s] : !tlx.mbarriers<2>
    tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
    // expected-error @below {{'tlx.barrier_wait' op waits on mbarrier 0 of this tlx.alloc_barriers with phase parity 0 again, while the barrier completes once for each wait (4 completions, 4 waits by this task in the replayed loops)}}
    // expected-note @below {{the previous wait on it, with the same parity}}
    tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  }
  tt.return
}

// -----

// A loop-carried parity flipped every iteration while the ring has two
// slots: slot 0 comes around every other iteration with the same parity.
// The trip count is an argument: the replay assumes one, so this warns.
tt.func @parity_flipped_every_iteration(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  // expected-note @below {{the mbarriers}}
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %last = scf.for %k = %c0 to %n step %c1 iter_args(%phase = %c0) -> (i32) : i32 {
    %s = arith.remsi %k, %c2 : i32
    %bar = tlx.local_view %bars[%s] : !tlx.mbarriers<2>
    tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
    // expected-warning @below {{with phase parity 0 again}}
    // expected-note @below {{the previous wait on it, with the same parity}}
    tlx.barrier_wait %bar, %phase : !tlx.mbarrier
    %next = arith.xori %phase, %c1 : i32
    scf.yield %next : i32
  }
  tt.return
}

// -----

// Warp-specialized: the consumer's waits on full[k % 2] alternate; the
// producer's waits on empty[k % 2] start at parity 1 (a free slot) and
// alternate too; two consumer replicas arrive on empty. Quiet.
tt.func @ws_ring(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %empty = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<2>
  tlx.async_tasks {
    tlx.async_task default {
      scf.for %k = %c0 to %n step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %round = arith.divsi %k, %c2 : i32
        %p = arith.andi %round, %c1 : i32
        %free = arith.xori %p, %c1 : i32
        %e = tlx.local_view %empty[%s] : !tlx.mbarriers<2>
        tlx.barrier_wait %e, %free : !tlx.mbarrier
        %f = tlx.local_view %full[%s] : !tlx.mbarriers<2>
        tlx.barrier_arrive %f, 1 : !tlx.mbarrier
      }
    }
    tlx.async_task num_warps(4) replicate(2) {
      scf.for %k = %c0 to %n step %c1 : i32 {
        %s = arith.remsi %k, %c2 : i32
        %round = arith.divsi %k, %c2 : i32
        %p = arith.andi %round, %c1 : i32
        %f = tlx.local_view %full[%s] : !tlx.mbarriers<2>
        tlx.barrier_wait %f, %p : !tlx.mbarrier
        %e = tlx.local_view %empty[%s] : !tlx.mbarriers<2>
        tlx.barrier_arrive %e, 1 : !tlx.mbarrier
      }
    }
  }
  tt.return
}

// -----

// A barrier armed once and waited in every iteration with the same parity:
// the waits are not one-to-one with completions. Quiet.
tt.func @armed_once_waited_often(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
  scf.for %k = %c0 to %n step %c1 : i32 {
    %b = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.barrier_wait %b, %c0 : !tlx.mbarrier
  }
  tt.return
}

// -----

// An arm under a condition the replay cannot evaluate: completions are
// unknown, nothing is judged.
tt.func @arm_under_unknown_condition(%flag: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c8 = arith.constant 8 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  scf.for %k = %c0 to %c8 step %c1 : i32 {
    %s = arith.remsi %k, %c2 : i32
    %bar = tlx.local_view %bars[%s] : !tlx.mbarriers<2>
    scf.if %flag {
      tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
    }
    tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  }
  tt.return
}

// -----

// The full barrier of a CLC pipeline is judged like a TMA ring's: the request
// completes bytes on it (no arrival), the expectation arrives. The consumer's
// parity does not flip: an error. (The empty barrier's arrivals are
// predicated at run time: it is left unjudged.)
tt.func @clc_consumer_with_constant_parity(%has_tile: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %responses = tlx.alloc_clc_responses : !tlx.clc_responses<1>
  %empty = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  // expected-note @below {{the mbarriers}}
  %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %e = tlx.local_view %empty[%c0] : !tlx.mbarriers<1>
  %f = tlx.local_view %full[%c0] : !tlx.mbarriers<1>
  %r = tlx.local_view %responses[%c0] : !tlx.clc_responses<1>
  scf.for %k = %c0 to %c4 step %c1 : i32 {
    %phase = arith.andi %k, %c1 : i32
    %free = arith.xori %phase, %c1 : i32
    tlx.barrier_wait %e, %free : !tlx.mbarrier
    tlx.barrier_expect_bytes %f, 16 : !tlx.mbarrier
    tlx.clc_try_cancel %r, %f
    // expected-error @below {{'tlx.barrier_wait' op waits on mbarrier 0 of this tlx.alloc_barriers with phase parity 0 again, while the barrier completes once for each wait (4 completions, 4 waits by this task in the replayed loops)}}
    // expected-note @below {{the previous wait on it, with the same parity}}
    tlx.barrier_wait %f, %c0 : !tlx.mbarrier
    %x, %y, %z = tlx.clc_query %r
    tlx.barrier_arrive %e, 1, %has_tile : !tlx.mbarrier
  }
  tt.return
}

// -----

// The same with the consumer's parity flipping each round: quiet.
tt.func @clc_consumer_with_flipping_parity(%has_tile: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %responses = tlx.alloc_clc_responses : !tlx.clc_responses<1>
  %empty = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %e = tlx.local_view %empty[%c0] : !tlx.mbarriers<1>
  %f = tlx.local_view %full[%c0] : !tlx.mbarriers<1>
  %r = tlx.local_view %responses[%c0] : !tlx.clc_responses<1>
  scf.for %k = %c0 to %c4 step %c1 : i32 {
    %phase = arith.andi %k, %c1 : i32
    %free = arith.xori %phase, %c1 : i32
    tlx.barrier_wait %e, %free : !tlx.mbarrier
    tlx.barrier_expect_bytes %f, 16 : !tlx.mbarrier
    tlx.clc_try_cancel %r, %f
    tlx.barrier_wait %f, %phase : !tlx.mbarrier
    %x, %y, %z = tlx.clc_query %r
    tlx.barrier_arrive %e, 1, %has_tile : !tlx.mbarrier
  }
  tt.return
}

// -----

// Ping-pong consumers over a persistent producer: each task computes the tile
// count from %m itself and starts at its program id; consumer c takes tiles
// pid + c * 4, every 8th. The replay assumes the producer's bound once and
// reads it again in each consumer (spelled alike), so each consumer replays
// half the producer's tiles: its waits on a slot are not one-to-one with the
// slot's completions and its constant parity is right. Quiet.
tt.func @pingpong_consumers_share_the_assumed_bound(%m: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c127 = arith.constant 127 : i32
  %c128 = arith.constant 128 : i32
  %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %f = tlx.local_view %full[%c0] : !tlx.mbarriers<1>
  tlx.async_tasks {
    tlx.async_task default {
      %pid = tt.get_program_id x : i32
      %rounded = arith.addi %m, %c127 : i32
      %tiles = arith.divsi %rounded, %c128 : i32
      scf.for %t = %pid to %tiles step %c4 : i32 {
        tlx.barrier_arrive %f, 1 : !tlx.mbarrier
      }
    }
    tlx.async_task num_warps(4) {
      %pid = tt.get_program_id x : i32
      %rounded = arith.addi %m, %c127 : i32
      %tiles = arith.divsi %rounded, %c128 : i32
      scf.for %t = %pid to %tiles step %c8 : i32 {
        tlx.barrier_wait %f, %c0 : !tlx.mbarrier
      }
    }
    tlx.async_task num_warps(4) {
      %pid = tt.get_program_id x : i32
      %rounded = arith.addi %m, %c127 : i32
      %tiles = arith.divsi %rounded, %c128 : i32
      %start = arith.addi %pid, %c4 : i32
      scf.for %t = %start to %tiles step %c8 : i32 {
        tlx.barrier_wait %f, %c1 : !tlx.mbarrier
      }
    }
  }
  tt.return
}

// -----

// The same consumer striding like the producer waits for every completion
// with a constant parity: found with the assumed bound.
tt.func @consumer_over_every_tile_with_constant_parity(%m: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c127 = arith.constant 127 : i32
  %c128 = arith.constant 128 : i32
  // expected-note @below {{the mbarriers}}
  %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %f = tlx.local_view %full[%c0] : !tlx.mbarriers<1>
  tlx.async_tasks {
    tlx.async_task default {
      %pid = tt.get_program_id x : i32
      %rounded = arith.addi %m, %c127 : i32
      %tiles = arith.divsi %rounded, %c128 : i32
      scf.for %t = %pid to %tiles step %c4 : i32 {
        tlx.barrier_arrive %f, 1 : !tlx.mbarrier
      }
    }
    tlx.async_task num_warps(4) {
      %pid = tt.get_program_id x : i32
      %rounded = arith.addi %m, %c127 : i32
      %tiles = arith.divsi %rounded, %c128 : i32
      scf.for %t = %pid to %tiles step %c4 : i32 {
        // expected-warning @below {{with phase parity 0 again, while the barrier completes once for each wait (6 completions, 6 waits by this task in the replayed loops)}}
        // expected-note @below {{the previous wait on it, with the same parity}}
        tlx.barrier_wait %f, %c0 : !tlx.mbarrier
      }
    }
  }
  tt.return
}

//! CPython's `random.Random(int)` stream, bit for bit: MT19937 seeded by `init_by_array` from the
//! seed's 32-bit words, `random()`, `getrandbits`, `_randbelow_with_getrandbits`, `choice`,
//! `shuffle`, `randrange`, `uniform`. Seeded agents in Rust must pick exactly what Python picks.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// A Mersenne Twister in CPython's exact configuration.
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    mti: usize,
}

impl PyRandom {
    /// `random.Random(seed)` for an int seed (CPython seeds from `abs(seed)`).
    pub fn new(seed: i128) -> Self {
        let mut a = seed.unsigned_abs();
        let mut key = Vec::new();
        while a > 0 {
            key.push(a as u32);
            a >>= 32;
        }
        if key.is_empty() {
            key.push(0);
        }
        Self::from_key(&key)
    }

    /// Seeded from the little-endian 32-bit words of `abs(seed)` (any size of int).
    pub fn from_key(key: &[u32]) -> Self {
        let mut r = PyRandom { mt: [0; N], mti: N + 1 };
        r.init_genrand(19_650_218);
        let mut i = 1usize;
        let mut j = 0usize;
        let key_len = key.len().max(1);
        let mut k = N.max(key_len);
        while k > 0 {
            let prev = r.mt[i - 1] ^ (r.mt[i - 1] >> 30);
            let kj = if key.is_empty() { 0 } else { key[j] };
            r.mt[i] = (r.mt[i] ^ prev.wrapping_mul(1_664_525)).wrapping_add(kj).wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                r.mt[0] = r.mt[N - 1];
                i = 1;
            }
            if j >= key_len {
                j = 0;
            }
            k -= 1;
        }
        k = N - 1;
        while k > 0 {
            let prev = r.mt[i - 1] ^ (r.mt[i - 1] >> 30);
            r.mt[i] = (r.mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                r.mt[0] = r.mt[N - 1];
                i = 1;
            }
            k -= 1;
        }
        r.mt[0] = 0x8000_0000;
        r
    }

    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..N {
            self.mt[i] = 1_812_433_253u32.wrapping_mul(self.mt[i - 1] ^ (self.mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        self.mti = N;
    }

    /// The next raw 32-bit output.
    pub fn genrand_u32(&mut self) -> u32 {
        if self.mti >= N {
            let mag01 = [0u32, MATRIX_A];
            let mut kk = 0;
            while kk < N - M {
                let y = (self.mt[kk] & UPPER_MASK) | (self.mt[kk + 1] & LOWER_MASK);
                self.mt[kk] = self.mt[kk + M] ^ (y >> 1) ^ mag01[(y & 1) as usize];
                kk += 1;
            }
            while kk < N - 1 {
                let y = (self.mt[kk] & UPPER_MASK) | (self.mt[kk + 1] & LOWER_MASK);
                self.mt[kk] = self.mt[kk + M - N] ^ (y >> 1) ^ mag01[(y & 1) as usize];
                kk += 1;
            }
            let y = (self.mt[N - 1] & UPPER_MASK) | (self.mt[0] & LOWER_MASK);
            self.mt[N - 1] = self.mt[M - 1] ^ (y >> 1) ^ mag01[(y & 1) as usize];
            self.mti = 0;
        }
        let mut y = self.mt[self.mti];
        self.mti += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// `random()`: a float in [0, 1) with 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = (self.genrand_u32() >> 5) as f64;
        let b = (self.genrand_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for 0 <= k <= 64.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits supports up to 64 bits here");
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return (self.genrand_u32() >> (32 - k)) as u64;
        }
        let low = self.genrand_u32() as u64;
        let rest = k - 32;
        let high = (self.genrand_u32() >> (32 - rest)) as u64;
        low | (high << 32)
    }

    /// `_randbelow_with_getrandbits(n)`: uniform in [0, n) by rejection.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        let k = 64 - n.leading_zeros();
        let mut r = self.getrandbits(k);
        while r >= n {
            r = self.getrandbits(k);
        }
        r
    }

    /// `choice(seq)` as an index (None for an empty sequence, where Python raises).
    pub fn choice_index(&mut self, len: usize) -> Option<usize> {
        if len == 0 {
            return None;
        }
        Some(self.randbelow(len as u64) as usize)
    }

    /// `choice(seq)`.
    pub fn choice<'a, T>(&mut self, seq: &'a [T]) -> Option<&'a T> {
        self.choice_index(seq.len()).map(|i| &seq[i])
    }

    /// `shuffle(x)` in place (Fisher-Yates from the end, as CPython).
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            x.swap(i, j);
        }
    }

    /// `randrange(start, stop)` with step 1 (stop > start).
    pub fn randrange(&mut self, start: i64, stop: i64) -> i64 {
        start + self.randbelow((stop - start) as u64) as i64
    }

    /// `uniform(a, b)`.
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.random()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values printed by CPython 3.11:
    // r = random.Random(42); [r.getrandbits(32) for _ in range(3)], r.random(), ...
    #[test]
    fn matches_cpython_seed_42() {
        let mut r = PyRandom::new(42);
        assert_eq!(r.random(), 0.6394267984578837);
        assert_eq!(r.random(), 0.025010755222666936);
    }

    // r = random.Random(12345); [r.getrandbits(k) for k in (1, 5, 32, 33, 64)]
    #[test]
    fn getrandbits_matches_cpython() {
        let mut r = PyRandom::new(12345);
        let got: Vec<u64> = [1, 5, 32, 33, 64].iter().map(|&k| r.getrandbits(k)).collect();
        assert_eq!(got, vec![0, 23, 43676229, 7817590892, 5508932873585391847]);
    }

    // r = random.Random(7); [r._randbelow(n) for n in (1, 2, 3, 10, 100, 1000)]
    #[test]
    fn randbelow_matches_cpython() {
        let mut r = PyRandom::new(7);
        let got: Vec<u64> = [1, 2, 3, 10, 100, 1000].iter().map(|&n| r.randbelow(n)).collect();
        assert_eq!(got, vec![0, 0, 1, 0, 9, 840]);
    }

    // r = random.Random(2**40 + 3); x = list(range(10)); r.shuffle(x)
    // r = random.Random(-99); r.uniform(2.0, 5.0), r.choice("abcde")
    #[test]
    fn shuffle_uniform_choice_match_cpython() {
        let mut r = PyRandom::new((1i128 << 40) + 3);
        let mut x: Vec<u32> = (0..10).collect();
        r.shuffle(&mut x);
        assert_eq!(x, vec![8, 5, 6, 7, 9, 2, 4, 1, 0, 3]);
        let mut r = PyRandom::new(-99);
        assert_eq!(r.uniform(2.0, 5.0), 3.211934224830999);
        assert_eq!(r.choice(&['a', 'b', 'c', 'd', 'e']), Some(&'b'));
    }

    #[test]
    fn matches_cpython_seed_zero_and_big() {
        let mut r = PyRandom::new(0);
        assert_eq!(r.random(), 0.8444218515250481);
        let mut big = PyRandom::new(-(1i128 << 70) - 12345);
        let mut again = PyRandom::new((1i128 << 70) + 12345);
        assert_eq!(big.random(), again.random());
    }
}

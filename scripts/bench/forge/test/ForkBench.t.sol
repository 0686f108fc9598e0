// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The few cheatcodes this test uses (forge answers them at the cheatcode address below).
interface Cheats {
    function envAddress(string calldata name) external view returns (address);
    function envAddress(string calldata name, string calldata delimiter) external view returns (address[] memory);
    function envUint(string calldata name) external view returns (uint256);
    function envBytes32(string calldata name) external view returns (bytes32);
    function getNonce(address account) external view returns (uint64);
    function prank(address sender) external;
}

interface BenchToken {
    function balanceOf(address who) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}

/// bench:fork's suite as a forge test on a fork of the bench's upstream: the same reads, the same
/// impersonated transfer and the same checks as the viem suite of scripts/bench/fork.mjs, in one
/// test function so that they run in that order. What it needs comes from the environment:
///   FORK_BENCH_TOKEN     the token
///   FORK_BENCH_HOLDERS   its holders, comma-separated; holder i holds FORK_BENCH_AMOUNT0 + i
///   FORK_BENCH_ACCOUNTS  how many holders' balance and nonce are read (the first ones)
///   FORK_BENCH_FUNDED    how many of the first holders hold 1 AVAX (the rest hold none)
///   FORK_BENCH_CODEHASH  keccak256 of the token's runtime code
contract ForkBenchTest {
    Cheats private constant CHEATS = Cheats(address(uint160(uint256(keccak256("hevm cheat code")))));

    error Mismatch(string what, uint256 holder, uint256 got, uint256 expected);

    function testForkSuite() public {
        BenchToken token = BenchToken(CHEATS.envAddress("FORK_BENCH_TOKEN"));
        address[] memory holders = CHEATS.envAddress("FORK_BENCH_HOLDERS", ",");
        uint256 amount0 = CHEATS.envUint("FORK_BENCH_AMOUNT0");
        uint256 accounts = CHEATS.envUint("FORK_BENCH_ACCOUNTS");
        uint256 funded = CHEATS.envUint("FORK_BENCH_FUNDED");

        // 1. Every holder's token balance: a storage slot of the token each, first touch.
        for (uint256 i = 0; i < holders.length; i++) {
            expect("balanceOf", i, token.balanceOf(holders[i]), amount0 + i);
        }
        // 2. The first holders' AVAX balance and nonce: accounts, first touch.
        for (uint256 i = 0; i < accounts && i < holders.length; i++) {
            expect("balance", i, holders[i].balance, i < funded ? 1 ether : 0);
            expect("nonce", i, CHEATS.getNonce(holders[i]), 0);
        }
        // 3. The token's code.
        if (address(token).codehash != CHEATS.envBytes32("FORK_BENCH_CODEHASH")) {
            revert Mismatch("codehash", 0, uint256(address(token).codehash), uint256(CHEATS.envBytes32("FORK_BENCH_CODEHASH")));
        }
        // 4. A transfer sent as holder 0 (impersonated).
        CHEATS.prank(holders[0]);
        if (!token.transfer(holders[1], 100)) revert Mismatch("transfer", 0, 0, 1);
        // 5. Every holder's token balance again, the transfer's two included.
        for (uint256 i = 0; i < holders.length; i++) {
            uint256 expected = amount0 + i;
            if (i == 0) expected -= 100;
            if (i == 1) expected += 100;
            expect("balanceOf after the transfer", i, token.balanceOf(holders[i]), expected);
        }
    }

    function expect(string memory what, uint256 holder, uint256 got, uint256 expected) private pure {
        if (got != expected) revert Mismatch(what, holder, got, expected);
    }
}

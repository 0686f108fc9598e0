// SPDX-License-Identifier: BSD-3-Clause
pragma solidity 0.8.37;

// The interface of ICM's TeleporterRegistry v1.0.0, as applications and icm-relayer's off-chain-registry
// handler see it. The signatures, selectors and event topics are the wire contract
// (docs/research/icm.md §3): they must not change.

/// One version of the messenger and where it lives. abi.encode(entry, registry) is the payload of the
/// off-chain warp message that adds it.
struct ProtocolRegistryEntry {
    uint256 version;
    address protocolAddress;
}

interface ITeleporterRegistry {
    /// A version was registered (not necessarily the latest).
    event AddProtocolVersion(uint256 indexed version, address indexed protocolAddress);

    /// The latest version moved up.
    event LatestVersionUpdated(uint256 indexed oldVersion, uint256 indexed newVersion);

    /// Registers the entry carried by the tx's warp predicate number `messageIndex`: an off-chain
    /// message of this chain, from the zero address, addressed to this registry. Selector 41f34ed9.
    function addProtocolVersion(uint32 messageIndex) external;

    /// The messenger at the latest version. Selector d820e64f.
    function getLatestTeleporter() external view returns (address);

    /// The messenger at `version`. Selector 215abce9.
    function getTeleporterFromVersion(uint256 version) external view returns (address);

    /// The address registered for `version`. Selector 46f9ef49.
    function getAddressFromVersion(uint256 version) external view returns (address);

    /// The highest version registered for `protocolAddress`. Selector 4c1f08ce.
    function getVersionFromAddress(address protocolAddress) external view returns (uint256);

    /// The highest version registered. Selector c07f47d4.
    function latestVersion() external view returns (uint256);

    /// This chain's blockchain ID: the only source chain addProtocolVersion accepts. Selector d127dc9b.
    function blockchainID() external view returns (bytes32);
}

// SPDX-License-Identifier: BSD-3-Clause
pragma solidity 0.8.37;

// The emulator's own ICM registry: the behaviour of TeleporterRegistry v1.0.0, written from the
// description in docs/research/icm.md §3 (not from icm-contracts' sources, which are under another
// license). Versions of the messenger are added by off-chain warp messages that the chain's
// validators agreed to sign (the chain config's warp-off-chain-messages).
//
// One difference on purpose: the real registry keeps this chain's ID in an immutable set by its
// constructor. The node places this registry at 0xF86Cb19Ad8405AEFa7d09C778215D2Cb6eBfB228 by a state
// edit, with no constructor run, so an immutable would stay zero and every addProtocolVersion would
// fail with "invalid source chain ID" (as the real runtime placed at genesis by avalanche-cli's
// --icm-registry-at-genesis does). blockchainID() therefore asks the warp precompile at call time,
// which answers the same as the immutable would have.

import {ITeleporterRegistry, ProtocolRegistryEntry} from "./ITeleporterRegistry.sol";
import {IWarpMessenger, WarpMessage} from "./IWarpMessenger.sol";

contract TeleporterRegistry is ITeleporterRegistry {
    // The storage layout is the real registry's, slot for slot, so that the state a placement writes
    // (latestVersion and the two mappings' entries) means the same for this code and a real runtime.

    /// Slot 0: the highest version registered; 0 while the registry is empty.
    uint256 public latestVersion;
    /// Slot 1: the address of each registered version.
    mapping(uint256 version => address protocolAddress) private _versionToAddress;
    /// Slot 2: the highest version registered for each address.
    mapping(address protocolAddress => uint256 version) private _addressToVersion;

    /// Who an addProtocolVersion message must come from: no contract, the validators themselves.
    address public constant VALIDATORS_SOURCE_ADDRESS = address(0);

    IWarpMessenger public constant WARP_MESSENGER = IWarpMessenger(0x0200000000000000000000000000000000000005);

    /// How far past the latest version a new one may go, so a mistaken message cannot make the
    /// registry unusable by jumping to a huge version.
    uint256 public constant MAX_VERSION_INCREMENT = 500;

    /// For a registry deployed by a tx: each entry is added in order, as addProtocolVersion would.
    /// A registry the node places runs no constructor; placement writes the storage instead.
    constructor(ProtocolRegistryEntry[] memory initialEntries) {
        for (uint256 i = 0; i < initialEntries.length; ++i) {
            _addToRegistry(initialEntries[i]);
        }
    }

    /// @inheritdoc ITeleporterRegistry
    function addProtocolVersion(uint32 messageIndex) external override {
        (WarpMessage memory message, bool valid) = WARP_MESSENGER.getVerifiedWarpMessage(messageIndex);
        require(valid, "TeleporterRegistry: invalid warp message");
        require(message.sourceChainID == blockchainID(), "TeleporterRegistry: invalid source chain ID");
        require(message.originSenderAddress == VALIDATORS_SOURCE_ADDRESS, "TeleporterRegistry: invalid origin sender address");

        (ProtocolRegistryEntry memory entry, address destination) = abi.decode(message.payload, (ProtocolRegistryEntry, address));
        require(destination == address(this), "TeleporterRegistry: invalid destination address");
        _addToRegistry(entry);
    }

    /// @inheritdoc ITeleporterRegistry
    function getLatestTeleporter() external view override returns (address) {
        return getAddressFromVersion(latestVersion);
    }

    /// @inheritdoc ITeleporterRegistry
    function getTeleporterFromVersion(uint256 version) external view override returns (address) {
        return getAddressFromVersion(version);
    }

    /// @inheritdoc ITeleporterRegistry
    function getAddressFromVersion(uint256 version) public view override returns (address) {
        require(version != 0, "TeleporterRegistry: zero version");
        address protocolAddress = _versionToAddress[version];
        require(protocolAddress != address(0), "TeleporterRegistry: version not found");
        return protocolAddress;
    }

    /// @inheritdoc ITeleporterRegistry
    function getVersionFromAddress(address protocolAddress) external view override returns (uint256) {
        require(protocolAddress != address(0), "TeleporterRegistry: zero protocol address");
        uint256 version = _addressToVersion[protocolAddress];
        require(version != 0, "TeleporterRegistry: protocol address not found");
        return version;
    }

    // Read from the warp precompile on each call, not kept in an immutable: see the note at the top.
    /// @inheritdoc ITeleporterRegistry
    function blockchainID() public view override returns (bytes32) {
        return WARP_MESSENGER.getBlockchainID();
    }

    /// Registers one entry; the checks run in the real registry's order, so the same error wins.
    function _addToRegistry(ProtocolRegistryEntry memory entry) private {
        require(entry.version != 0, "TeleporterRegistry: zero version");
        require(_versionToAddress[entry.version] == address(0), "TeleporterRegistry: version already exists");
        require(entry.protocolAddress != address(0), "TeleporterRegistry: zero protocol address");
        uint256 latest = latestVersion;
        require(entry.version <= latest + MAX_VERSION_INCREMENT, "TeleporterRegistry: version increment too high");

        _versionToAddress[entry.version] = entry.protocolAddress;
        // An address registered again under an older version keeps its newer one.
        if (entry.version > _addressToVersion[entry.protocolAddress]) {
            _addressToVersion[entry.protocolAddress] = entry.version;
        }
        emit AddProtocolVersion(entry.version, entry.protocolAddress);

        if (entry.version > latest) {
            latestVersion = entry.version;
            emit LatestVersionUpdated(latest, entry.version);
        }
    }
}

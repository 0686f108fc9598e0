// SPDX-License-Identifier: BSD-3-Clause
pragma solidity 0.8.37;

/// What a contract implements to take ICM messages: the messenger calls it with the gas the sender
/// asked for (requiredGasLimit). Selector c868efaa.
interface ITeleporterReceiver {
    function receiveTeleporterMessage(bytes32 sourceBlockchainID, address originSenderAddress, bytes calldata message) external;
}
